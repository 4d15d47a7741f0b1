import type { Operation, Route } from '../route-table';
import {
  concretePath,
  fieldsOf,
  inBody,
  pathValues,
  PREREQUISITE_NOTE,
  type Fields,
  type SampleCall,
  type Value,
} from './sample-values';

// The Ruby samples: the Epom gem's own call where it has one, elsewhere HTTParty called as the gem calls it.

/** The gem's method for an operation it has (campaign and banner limits, the token). */
const GEM_METHODS: Partial<Record<Operation, string>> = {
  'auth.token': 'get_authentication_token',
  'limits.read': 'get_limits',
  'limits.set': 'set_limits',
  'limits.update': 'update_limits',
  'limits.delete': 'disable_limits',
};

/** The gem resets campaign counters with DELETE and banner counters with POST. */
export const gemMethodOf = (route: Route): string | undefined => {
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

const gemCall = (route: Route, method: string, fields: Fields): string => {
  const owner = route.operation === 'auth.token' ? 'Auth' : route.level === 'campaign' ? 'Campaign' : 'Banner';
  return `Epom::${owner}.${method}(${rubyHash(pathValues(route))}, ${rubyHash(fields)})`;
};

const gem = ({ route, fields, serverUrl, first }: SampleCall, method: string): string =>
  `${gemSetup(serverUrl)}
# the gem signs the call (username, timestamp, hash); a POST sends it and the parameters in a form body, a GET or DELETE in the query
${first ? `# ${PREREQUISITE_NOTE}\n${gemCall(first, gemMethodOf(first)!, fieldsOf(first))}\n` : ''}response = ${gemCall(route, method, fields)}`;

/** What the gem does, for the operations it has no method for: HTTParty, a POST's parameters in a form body (as HTTMultiParty sends them), a GET's or DELETE's in the query string. */
const httpartyCall = (route: Route, fields: Fields, serverUrl: string): string => {
  const params = route.authenticated ? `signed.merge(${rubyHash(fields)})` : rubyHash(fields);
  return `HTTParty.${route.method.toLowerCase()}(
  '${serverUrl}${concretePath(route)}',
  ${inBody(route) ? 'body' : 'query'}: ${params}
)`;
};

const httparty = ({ route, fields, serverUrl, first }: SampleCall): string => {
  const signing = route.authenticated
    ? `timestamp = Time.now.to_i * 1000 # the gem's timestamps: whole seconds, in milliseconds
signed = { username: 'demo', timestamp: timestamp,
           hash: Digest::MD5.hexdigest(Digest::MD5.hexdigest('demo-password') + timestamp.to_s) }
`
    : '';
  const before = first ? `# ${PREREQUISITE_NOTE}\n${httpartyCall(first, fieldsOf(first), serverUrl)}\n` : '';
  return `require 'httparty'
require 'digest'

${signing}${before}response = ${httpartyCall(route, fields, serverUrl)}`;
};

/** The Ruby sample of a call, and its label. */
export const rubySample = (call: SampleCall): { label: string; source: string } => {
  const method = gemMethodOf(call.route);
  return method
    ? { label: 'Ruby (Epom gem)', source: gem(call, method) }
    : { label: 'Ruby (HTTParty, as the Epom gem sends it)', source: httparty(call) };
};
