import type { Operation, Route } from '../route-table';

/**
 * The reference's code samples (`x-codeSamples`, shown by Redoc): each operation called with curl, with a client
 * generated from this document (openapi-typescript + openapi-fetch), and in Ruby as the Epom gem calls it. Each
 * names the server the document describes (the page's own), and a visible placeholder for the caller's API key;
 * ids are those of the demo catalog, so every sample runs against `npm start` once the key is filled in.
 */

/** Where a sample's API key goes: the caller's own (`demo-key-0001` on `npm start`). */
export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

type Value = string | number | boolean | readonly (string | number)[];
type Fields = Record<string, Value>;

/** The sample's path parameters: a demo entity of each kind. */
const PATH_VALUES: Record<string, string> = {
  advertiserId: '10',
  campaignId: '100',
  bannerId: '1000',
  siteId: '20',
  placementId: '200',
  type: 'CAMPAIGN',
  entityId: '100',
  authToken: '0f3c9a7b2d4e6f8091a2b3c4d5e6f708',
  webhookId: 'wh_k3v7q2mz5x4c6b2n2p7r',
};

const SAMPLE_FIELDS: Partial<Record<Operation, Fields>> = {
  'auth.token': { username: 'demo', password: 'demo-password' },
  'auth.login': { json: true },
  'auth.forgot': { email: 'demo@example.com' },
  'auth.resetPassword': { token: '0f3c9a7b2d4e6f8091a2b3c4d5e6f708', password: 'a-new-password' },
  'limits.set': { dailyImpressionsLimit: 1000, totalClicksLimit: 500 },
  'limits.update': { dailyImpressionsLimit: 1200 },
  'limits.reset': { limitCounters: ['DAILY_IMPRESSIONS', 'TOTAL_CLICKS'] },
  'limits.resetByDelete': { limitCounters: ['DAILY_IMPRESSIONS', 'TOTAL_CLICKS'] },
  'limits.history': { limit: 20 },
  'limits.bulkCampaigns': { campaignIds: [100, 102] },
  'limits.bulkBanners': { bannerIds: [1000, 1001] },
  'perAction.add': { actionId: 7, dailyConversionsLimit: 5, totalConversionsLimit: 50 },
  'perAction.update': { actionId: 7, dailyConversionsLimit: 8 },
  'perAction.delete': { type: 'CAMPAIGN', entityId: 100, ids: [3] },
  'webhooks.create': { url: 'https://partner.example/hooks/limits', events: ['limit.reached'], campaignIds: [100] },
  'webhooks.update': { url: 'https://partner.example/hooks/limits-v2', events: ['limit.reached'], campaignIds: [100] },
};

const pathValues = (route: Route): Fields =>
  Object.fromEntries(
    [...route.path.matchAll(/\{([A-Za-z]+)\}/g)].map(([, name]) => {
      const value = PATH_VALUES[name!]!;
      return [name!, /^\d+$/.test(value) ? Number(value) : value];
    }),
  );

const concretePath = (route: Route): string =>
  route.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => PATH_VALUES[name]!);

const text = (value: Value): string => (Array.isArray(value) ? value.join(',') : String(value));

/** Parameters of a GET or DELETE go in the query string; of a POST, in the form body. */
const inBody = (route: Route) => route.method === 'POST';

const curl = (route: Route, fields: Fields, serverUrl: string): string => {
  const url = `'${serverUrl}${concretePath(route)}'`;
  const query = !inBody(route) && Object.keys(fields).length > 0 ? ' -G' : '';
  const method = `${query}${route.method === 'GET' ? '' : ` -X ${route.method}`}`;
  const credential = route.authenticated ? ` \\\n  -H 'X-Api-Key: ${API_KEY_PLACEHOLDER}'` : '';
  const data = Object.entries(fields)
    .map(([name, value]) => ` \\\n  --data-urlencode '${name}=${text(value)}'`)
    .join('');
  return `curl -sS${method} ${url}${credential}${data}`;
};

const literal = (value: Value): string =>
  Array.isArray(value)
    ? `[${value.map((item) => (typeof item === 'string' ? `'${item}'` : String(item))).join(', ')}]`
    : typeof value === 'string'
      ? `'${value}'`
      : String(value);

const objectLiteral = (fields: Record<string, Value>): string =>
  `{ ${Object.entries(fields)
    .map(([name, value]) => `${name}: ${literal(value)}`)
    .join(', ')} }`;

const typescript = (route: Route, fields: Fields, serverUrl: string): string => {
  const path = pathValues(route);
  const params = {
    ...(Object.keys(path).length > 0 ? { path: objectLiteral(path) } : {}),
    ...(!inBody(route) && Object.keys(fields).length > 0 ? { query: objectLiteral(fields) } : {}),
  };
  const options = [
    ...(Object.keys(params).length > 0
      ? [
          `params: { ${Object.entries(params)
            .map(([name, value]) => `${name}: ${value}`)
            .join(', ')} }`,
        ]
      : []),
    ...(inBody(route) && Object.keys(fields).length > 0 ? [`body: ${objectLiteral(fields)}`] : []),
  ];
  return `import createClient from 'openapi-fetch';
import type { paths } from './api'; // npx openapi-typescript openapi.json -o api.ts

const client = createClient<paths>({
  baseUrl: '${serverUrl}',
  headers: {${route.authenticated ? ` 'X-Api-Key': '${API_KEY_PLACEHOLDER}',` : ''} 'Content-Type': 'application/x-www-form-urlencoded' },
});
const { data, error } = await client.${route.method}('${route.path}'${options.length > 0 ? `, {\n  ${options.join(',\n  ')},\n}` : ''});`;
};

/** The gem's method for an operation it has (campaign and banner limits, the token). */
const GEM_METHODS: Partial<Record<Operation, string>> = {
  'auth.token': 'get_authentication_token',
  'limits.read': 'get_limits',
  'limits.set': 'set_limits',
  'limits.update': 'update_limits',
  'limits.delete': 'disable_limits',
};

/** The gem resets campaign counters with DELETE and banner counters with POST. */
const gemMethodOf = (route: Route): string | undefined => {
  if (route.operation === 'auth.token') return GEM_METHODS['auth.token'];
  if (route.level !== 'campaign' && route.level !== 'banner') return undefined;
  const resetsWith = route.level === 'campaign' ? 'limits.resetByDelete' : 'limits.reset';
  return route.operation === resetsWith ? 'reset_limits' : GEM_METHODS[route.operation];
};

const rubyValue = (value: Value): string =>
  Array.isArray(value) ? `%w[${value.join(' ')}]` : typeof value === 'string' ? `'${value}'` : String(value);

const rubyHash = (fields: Record<string, Value>): string =>
  `{ ${Object.entries(fields)
    .map(([name, value]) => `${name}: ${rubyValue(value)}`)
    .join(', ')} }`;

const gemSetup = (serverUrl: string) => `require 'epom'

Epom.configure do |config|
  config.epom_server = '${serverUrl}'
  config.username = 'demo'
  config.password = 'demo-password'
end
`;

const gem = (route: Route, method: string, fields: Fields, serverUrl: string): string => {
  const owner = route.operation === 'auth.token' ? 'Auth' : route.level === 'campaign' ? 'Campaign' : 'Banner';
  return `${gemSetup(serverUrl)}
# the gem signs the call (username, timestamp, hash); a POST sends it and the parameters in a form body, a GET or DELETE in the query
response = Epom::${owner}.${method}(${rubyHash(pathValues(route))}, ${rubyHash(fields)})`;
};

/** What the gem does, for the operations it has no method for: HTTParty, a POST's parameters in a form body (as HTTMultiParty sends them), a GET's or DELETE's in the query string. */
const httparty = (route: Route, fields: Fields, serverUrl: string): string => {
  const signing = route.authenticated
    ? `timestamp = Time.now.to_i * 1000 # the gem's timestamps: whole seconds, in milliseconds
signed = { username: 'demo', timestamp: timestamp,
           hash: Digest::MD5.hexdigest(Digest::MD5.hexdigest('demo-password') + timestamp.to_s) }
`
    : '';
  const params = route.authenticated ? `signed.merge(${rubyHash(fields)})` : rubyHash(fields);
  return `require 'httparty'
require 'digest'

${signing}response = HTTParty.${route.method.toLowerCase()}(
  '${serverUrl}${concretePath(route)}',
  ${inBody(route) ? 'body' : 'query'}: ${params}
)`;
};

/** The samples of one operation, calling the server at `serverUrl`. */
export const codeSamples = (route: Route, serverUrl: string): CodeSample[] => {
  const fields = SAMPLE_FIELDS[route.operation] ?? {};
  const method = gemMethodOf(route);
  return [
    { lang: 'Shell', label: 'curl', source: curl(route, fields, serverUrl) },
    { lang: 'TypeScript', label: 'TypeScript (openapi-fetch)', source: typescript(route, fields, serverUrl) },
    method
      ? { lang: 'Ruby', label: 'Ruby (Epom gem)', source: gem(route, method, fields, serverUrl) }
      : {
          lang: 'Ruby',
          label: 'Ruby (HTTParty, as the Epom gem sends it)',
          source: httparty(route, fields, serverUrl),
        },
  ];
};
