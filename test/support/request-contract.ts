import type { IHttpRequest } from '@stoplight/prism-http';
// the package's index also loads its mocker and forwarder, which the check never uses: two thirds of its load time
import { getHttpOperationsFromSpec } from '@stoplight/prism-http/dist/utils/operations.js';
import prismRoute from '@stoplight/prism-http/dist/router/index.js';
import { validateInput, validateOutput, validateSecurity } from '@stoplight/prism-http/dist/validator/index.js';
import { matchPath } from '../../shared/api/path-template';
import { ROUTES } from '../../shared/api/route-table';
import { buildOpenApiDocument } from '../../shared/api/openapi/openapi-document';

/**
 * The document checked by an independent validator: Stoplight Prism's own router and validators, the ones its
 * validating proxy (`prism proxy --errors`) runs, applied to every request an integration test sends and to the
 * answer it gets. Prism reads the document's parameter styles and form encodings itself, so a request it calls
 * invalid is one a gateway validator or a generated client built from the document would get wrong.
 */

/** One exchange as the proxy sees it: the request as sent, the answer as received. */
export interface Exchange {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
}

export interface Verdict {
  request: string;
  /** What Prism finds wrong with the request (security included). */
  requestProblems: string[];
  /** What Prism finds wrong with the answer. */
  responseProblems: string[];
}

let operations: ReturnType<typeof getHttpOperationsFromSpec> | undefined;
const operationsOfDocument = () => (operations ??= getHttpOperationsFromSpec(buildOpenApiDocument()));

type Diagnostic = { path?: (string | number)[]; message: string };
const describe = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map(({ path, message }) => `${(path ?? []).join('.')} ${message}`.trim());

const problemsOf = (result: { _tag: string; left?: unknown }): readonly Diagnostic[] =>
  result._tag === 'Left' ? (result.left as Diagnostic[]) : [];

const queryOf = (url: URL): Record<string, string | string[]> => {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  return query;
};

const parsedBody = (contentType: string, body: string): unknown => {
  if (!contentType.startsWith('application/json')) return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
};

/** Prism's verdict on one exchange; undefined for paths outside the route table (`/_local`, `/docs`). */
export const judgeExchange = async (exchange: Exchange): Promise<Verdict | undefined> => {
  const { method, url } = exchange;
  if (!ROUTES.some((route) => matchPath(route.path, url.pathname))) return undefined;
  // the document declares each GET; HEAD is its answer without a body, by HTTP's definition; a CORS preflight
  // (OPTIONS) is answered by the gateway, not by an operation
  if (method === 'HEAD' || method === 'OPTIONS') return undefined;
  const request = `${method} ${url.pathname}${url.search} → ${exchange.status}`;
  const input: IHttpRequest = {
    method: method.toLowerCase() as IHttpRequest['method'],
    url: { path: url.pathname, query: queryOf(url) },
    headers: exchange.headers,
    body: exchange.body === '' ? undefined : exchange.body,
  };
  const routed = prismRoute({ resources: await operationsOfDocument(), input });
  if (routed._tag === 'Left')
    return { request, requestProblems: [`no operation: ${routed.left.message}`], responseProblems: [] };
  const resource = routed.right;
  const requestProblems = [
    ...problemsOf(validateSecurity({ resource, element: input })),
    ...problemsOf(validateInput({ resource, element: input })),
  ];
  const output = {
    statusCode: exchange.status,
    headers: exchange.responseHeaders,
    body: parsedBody(exchange.responseHeaders['content-type'] ?? '', exchange.responseBody),
  };
  const responseProblems = problemsOf(validateOutput({ resource, element: output }));
  return { request, requestProblems: describe(requestProblems), responseProblems: describe(responseProblems) };
};
