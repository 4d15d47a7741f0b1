import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { referencePagePolicy } from './reference-policy';

/**
 * The server URL the reference is built with before anyone reads it: every occurrence (the document's `servers`,
 * each code sample) becomes the URL of the server that serves it, so that a sample runs as pasted wherever the page
 * is read. `.invalid` can never be a real host.
 */
export const PLACEHOLDER_SERVER_URL = 'https://reference.delivery-limits.invalid/stage';

/** Where the reference is served, locally and by API Gateway. */
export const REFERENCE_PATHS = { page: '/docs', document: '/rest-api/openapi.json' } as const;

/** The page (self-contained Redoc) and the document as JSON text, both built for the placeholder server. */
export interface BuiltReference {
  page: string;
  document: string;
}

/** Caches may keep the reference for five minutes (the gateway's cache too): it changes only with a deployment. */
export const REFERENCE_MAX_AGE_SECONDS = 300;
const CACHE_CONTROL = `public, max-age=${REFERENCE_MAX_AGE_SECONDS}`;
const META_POLICY = /(<meta http-equiv="Content-Security-Policy" content=")[^"]*(")/;

const atServer = (text: string, serverUrl: string) => text.replaceAll(PLACEHOLDER_SERVER_URL, serverUrl);

const COMMON_HEADERS = { 'Cache-Control': CACHE_CONTROL, 'X-Content-Type-Options': 'nosniff' };

/**
 * The page for one server: the placeholder replaced by `serverUrl`, and the page's policy (its header and the copy
 * in its meta element, which a browser enforces too) computed again, since the page's inline state holds the URL
 * and each inline script is allowed by its hash.
 */
export const pageAnswer = (builtPage: string, serverUrl: string): APIGatewayProxyResult => {
  const moved = atServer(builtPage, serverUrl);
  const policy = referencePagePolicy(moved);
  return {
    statusCode: 200,
    headers: { ...COMMON_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': policy },
    body: moved.replace(META_POLICY, `$1${policy}$2`),
  };
};

/** The document for one server. */
export const documentAnswer = (builtDocument: string, serverUrl: string): APIGatewayProxyResult => ({
  statusCode: 200,
  headers: { ...COMMON_HEADERS, 'Content-Type': 'application/json; charset=utf-8' },
  body: atServer(builtDocument, serverUrl),
});

/** Both answers for one server, by path. */
export const referenceAnswers = (built: BuiltReference, serverUrl: string): Record<string, APIGatewayProxyResult> => ({
  [REFERENCE_PATHS.page]: pageAnswer(built.page, serverUrl),
  [REFERENCE_PATHS.document]: documentAnswer(built.document, serverUrl),
});

/**
 * The URL a partner called, less the reference's own path: the host, and the stage (`/prod` on the execute-api
 * host) or a custom domain's base path, as API Gateway reports them.
 */
export const servingUrlOf = (event: Pick<APIGatewayProxyEvent, 'resource' | 'requestContext'>): string => {
  const { domainName, path } = event.requestContext;
  const prefix = path.endsWith(event.resource) ? path.slice(0, path.length - event.resource.length) : '';
  return `https://${domainName}${prefix}`;
};
