import { ROUTES, type Operation, type Route } from '../route-table';
import { rubySample } from './ruby-samples';
import {
  concretePath,
  fieldsOf,
  inBody,
  pathValues,
  PREREQUISITE_NOTE,
  text,
  type Fields,
  type SampleCall,
  type Value,
} from './sample-values';

/**
 * The reference's code samples (`x-codeSamples`, shown by Redoc): each operation called with curl, with a client
 * generated from this document (openapi-typescript + openapi-fetch), and in Ruby as the Epom gem calls it. Each
 * names the server the document describes (the page's own) and, with ids of the demo catalog, is written for one
 * of two readers: a partner (the deployed page), whose key goes where `YOUR_API_KEY` stands, or a reader of
 * `npm start` with the demo catalog, for whom every sample runs as pasted.
 */

/** Where a sample's API key goes: the caller's own. */
export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';

/** The demo catalog's key of user `demo`, who may do everything the samples do. */
export const DEMO_API_KEY = 'demo-key-0001';

/** Who a page's samples are written for. */
export interface SampleReader {
  /** The key each sample sends. */
  apiKey: string;
  /**
   * The demo data, which holds no limits: a sample that changes limits first makes them, with the call that does
   * (set.do before update.do, an add before a per-action update).
   */
  demoData: boolean;
}

/** The deployed page's reader: a partner with limits of its own. */
export const PARTNER_READER: SampleReader = { apiKey: API_KEY_PLACEHOLDER, demoData: false };

/** The reader of `npm start` with the demo catalog. */
export const DEMO_READER: SampleReader = { apiKey: DEMO_API_KEY, demoData: true };

/** On the demo data, what must run before a sample: the operation that makes what it changes. */
const DEMO_PREREQUISITES: Partial<Record<Operation, Operation>> = {
  'limits.update': 'limits.set',
  'limits.reset': 'limits.set',
  'limits.resetByDelete': 'limits.set',
  'perAction.update': 'perAction.add',
};

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

const curl = ({ route, fields, serverUrl, apiKey }: SampleCall, quiet = false): string => {
  const url = `'${serverUrl}${concretePath(route)}'`;
  const query = !inBody(route) && Object.keys(fields).length > 0 ? ' -G' : '';
  const method = `${quiet ? ' -o /dev/null' : ''}${query}${route.method === 'GET' ? '' : ` -X ${route.method}`}`;
  const credential = route.authenticated ? ` \\\n  -H 'X-Api-Key: ${apiKey}'` : '';
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

/** The typed client's call of an operation: `client.POST('/path', { params, body })`. */
const typescriptCall = (route: Route, fields: Fields): string => {
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
  return `client.${route.method}('${route.path}'${options.length > 0 ? `, {\n  ${options.join(',\n  ')},\n}` : ''})`;
};

const typescript = ({ route, fields, serverUrl, apiKey, first }: SampleCall): string =>
  `import createClient from 'openapi-fetch';
import type { paths } from './api'; // npx openapi-typescript openapi.json -o api.ts

const client = createClient<paths>({
  baseUrl: '${serverUrl}',
  headers: {${route.authenticated ? ` 'X-Api-Key': '${apiKey}',` : ''} 'Content-Type': 'application/x-www-form-urlencoded' },
});
${first ? `// ${PREREQUISITE_NOTE}\nawait ${typescriptCall(first, fieldsOf(first))};\n` : ''}const { data, error } = await ${typescriptCall(route, fields)};`;

/** The route of `operation` beside `route`: on the same level, for a per-level operation. */
const routeBeside = (route: Route, operation: Operation): Route =>
  ROUTES.find((candidate) => candidate.operation === operation && candidate.level === route.level)!;

/** The samples of one operation, calling the server at `serverUrl`, for `reader`. */
export const codeSamples = (route: Route, serverUrl: string, reader: SampleReader = PARTNER_READER): CodeSample[] => {
  const prerequisite = reader.demoData ? DEMO_PREREQUISITES[route.operation] : undefined;
  const first = prerequisite ? routeBeside(route, prerequisite) : undefined;
  const call: SampleCall = {
    route,
    fields: fieldsOf(route),
    serverUrl,
    apiKey: reader.apiKey,
    ...(first ? { first } : {}),
  };
  const shell = [
    ...(first ? [`# ${PREREQUISITE_NOTE}`, curl({ ...call, route: first, fields: fieldsOf(first) }, true)] : []),
    curl(call),
  ].join('\n');
  return [
    { lang: 'Shell', label: 'curl', source: shell },
    { lang: 'TypeScript', label: 'TypeScript (openapi-fetch)', source: typescript(call) },
    { lang: 'Ruby', ...rubySample(call) },
  ];
};
