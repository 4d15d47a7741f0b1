import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { matchPath } from '../../shared/api/path-template';
import { ROUTES, type Family } from '../../shared/api/route-table';
import type { Clock } from '../../shared/ports/clock';
import { corsHeaders, type CorsPolicy } from '../../shared/http/cors';
import { MAX_BODY_BYTES } from '../../shared/http/form-body';
import { headerValue } from '../../shared/http/parameters';
import { JSON_CONTENT_TYPE } from '../../shared/http/response';
import { describeError, logger } from '../../shared/observability/logger';
import { errorCodeOf } from '../../shared/api/error-codes';
import { REQUEST_ID_HEADER } from '../../shared/api/browser-headers';
import { randomUUID } from 'node:crypto';
import { buildOpenApiDocument } from '../../shared/api/openapi/openapi-document';
import {
  documentAnswer,
  pageAnswer,
  PLACEHOLDER_SERVER_URL,
  REFERENCE_PATHS,
} from '../../shared/api/openapi/published-reference';
import { buildReferencePage } from '../../shared/api/openapi/reference-page';
import { DEMO_READER, PARTNER_READER, type SampleReader } from '../../shared/api/openapi/code-samples';
import { buildProxyEvent, lambdaContext } from './api-gateway-event';
import { authorize, envelope, preflight, stampRequestId, type Authorizer } from './gateway-answers';
import type { LocalEndpoints } from './local-endpoints';
import { logAccess } from './access-log';
import { browserRefusal, type BrowserGuardOptions } from './browser-guard';

export type FamilyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type { Authorizer } from './gateway-answers';
export { authorize } from './gateway-answers';

export interface GatewayParts {
  handlers: Record<Family, FamilyHandler>;
  authorizer: Authorizer;
  localEndpoints: LocalEndpoints;
  clock: Clock;
  /** As the stack's `corsOrigins`: preflights answered, and gateway-made errors carry the headers too. */
  cors: CorsPolicy;
  /** Pages served as they are, by path (the API reference). */
  reference?: Record<string, () => Promise<APIGatewayProxyResult>>;
  /** What a request's `Host` may name: the address listened on decides (`browser-guard.ts`). */
  browserGuard: BrowserGuardOptions;
}

/**
 * The document and its page for each kind of reader, built once per process on first request: every server of the
 * process serves them.
 */
const builtDocuments = new Map<SampleReader, string>();
const builtPages = new Map<SampleReader, Promise<string>>();
const publishedDocument = (reader: SampleReader) => {
  if (!builtDocuments.has(reader))
    builtDocuments.set(reader, JSON.stringify(buildOpenApiDocument(PLACEHOLDER_SERVER_URL, reader)));
  return builtDocuments.get(reader)!;
};
const publishedPage = (reader: SampleReader) => {
  if (!builtPages.has(reader))
    builtPages.set(reader, buildReferencePage(JSON.parse(publishedDocument(reader)) as object));
  return builtPages.get(reader)!;
};

/**
 * The API reference, as API Gateway serves it (the same answers, for this server's URL): the document, and the page.
 * On the demo catalog its samples carry the demo key and make the limits they change first, so each runs as
 * pasted; with another catalog they carry the deployed page's placeholder. Both are built on the first request for
 * them, not at the server's start: the document takes some 0.1 s of processor time and the page about a second,
 * and most servers (a test file's) never serve either.
 */
export const buildReference = (
  serverUrl: string,
  { demoCatalog }: { demoCatalog: boolean },
): Record<string, () => Promise<APIGatewayProxyResult>> => {
  const reader = demoCatalog ? DEMO_READER : PARTNER_READER;
  return {
    [REFERENCE_PATHS.document]: async () => documentAnswer(publishedDocument(reader), serverUrl),
    [REFERENCE_PATHS.page]: async () => pageAnswer(await publishedPage(reader), serverUrl),
  };
};

const API_GATEWAY_TIMEOUT_MS = 29_000;
/** `/_local/catalog` takes whole catalogs; API routes take what API Gateway and the handlers accept. */
const LOCAL_BODY_LIMIT = 64 * MAX_BODY_BYTES;

class BodyTooLarge extends Error {}

/** The client hung up before its request was read. */
class ClientAborted extends Error {}

const readBody = (request: IncomingMessage, limit: number): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', (error) => reject(request.complete ? error : new ClientAborted()));
  });

const send = (response: ServerResponse, result: APIGatewayProxyResult): void => {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) headers[name] = values.map(String);
  response.writeHead(result.statusCode, headers);
  response.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
};

/** One request as the access log tells it. */
interface Exchange {
  requestId: string;
  /** The path as logged: a route's template (`/rest-api/auth/{authToken}/login.do`), never a path's values. */
  route?: string;
  principalId?: string;
}

/** The local API Gateway: routes with the route table, runs the authorizer, calls the family's handler. */
const handleApiRequest = async (
  parts: GatewayParts,
  request: IncomingMessage,
  url: URL,
  exchange: Exchange,
): Promise<APIGatewayProxyResult> => {
  const candidates = ROUTES.filter((route) => matchPath(route.path, url.pathname));
  if (candidates.length === 0) return envelope(404, `No route for ${url.pathname}`);
  if (request.method === 'OPTIONS' && parts.cors.allowedOrigins.length > 0)
    return preflight(parts.cors, headerValue(request.headers as Record<string, string>, 'origin'), candidates);
  // HEAD is a GET without its body, wherever GET is (Node sends no body in a HEAD answer)
  const route = candidates.find(
    (candidate) => candidate.method === (request.method === 'HEAD' ? 'GET' : request.method),
  );
  exchange.route = (route ?? candidates[0]!).path;
  if (!route) {
    const allow = [...new Set(candidates.map((candidate) => candidate.method))].join(', ');
    return envelope(405, `Method ${request.method} is not allowed here; use ${allow}`, { Allow: allow });
  }
  const body = await readBody(request, MAX_BODY_BYTES);
  const event = buildProxyEvent(
    {
      method: request.method ?? 'GET',
      url,
      headers: request.headers,
      body,
      sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
      receivedAt: parts.clock.now(),
      requestId: exchange.requestId,
    },
    route,
  );
  if (route.authenticated) {
    const refusal = await authorize(parts.authorizer, event);
    if (refusal) return refusal;
    exchange.principalId = String(event.requestContext.authorizer?.principalId ?? '') || undefined;
  }
  return parts.handlers[route.family](event, lambdaContext(route.family, API_GATEWAY_TIMEOUT_MS));
};

/** Requests Node cannot even parse (a raw non-ASCII path, oversized headers) still get the JSON envelope. */
const answerUnparseable = (error: NodeJS.ErrnoException, socket: Duplex): void => {
  if (!socket.writable) return;
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request headers are too large']
      : [400, 'Bad Request', 'The request is not valid HTTP'];
  const requestId = randomUUID();
  const body = JSON.stringify({ success: false, code: errorCodeOf(status), message, requestId });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${REQUEST_ID_HEADER}: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
};

/** The answer to one request: a page's refusal, the reference, a `/_local` endpoint, or the API. */
const answerOf = (parts: GatewayParts, request: IncomingMessage, url: URL, exchange: Exchange) => {
  const reference = request.method === 'GET' || request.method === 'HEAD' ? parts.reference?.[url.pathname] : undefined;
  const isLocal = url.pathname.startsWith('/_local/');
  if (reference || isLocal) exchange.route = url.pathname;
  const refused = browserRefusal(url.pathname, request.headers, parts.browserGuard);
  if (refused) return Promise.resolve(refused);
  if (reference) return reference();
  if (isLocal)
    return readBody(request, LOCAL_BODY_LIMIT).then((body) =>
      parts.localEndpoints.handle(request.method ?? 'GET', url.pathname, body),
    );
  return handleApiRequest(parts, request, url, exchange).then((result) => ({
    ...result,
    // gateway-made answers (401, 404, 405, 503…) carry the CORS headers too, as the stack's gateway responses do
    headers: {
      ...corsHeaders(parts.cors, headerValue(request.headers as Record<string, string>, 'origin')),
      ...result.headers,
    },
  }));
};

export const createLocalServer = (parts: GatewayParts): Server =>
  createServer((request, response) => {
    const startedAt = performance.now();
    const exchange: Exchange = { requestId: randomUUID() };
    const url = new URL(request.url ?? '/', 'http://localhost');
    answerOf(parts, request, url, exchange)
      .catch((error: unknown) => {
        if (error instanceof BodyTooLarge) return envelope(413, 'The request body is too large');
        if (error instanceof ClientAborted) return error;
        logger.error('local server failed', { requestId: exchange.requestId, ...describeError(error) });
        return envelope(500, 'Internal error');
      })
      .then((result) => {
        // nobody is left to answer: no status is sent, and the server did not fail
        const aborted = result instanceof ClientAborted || request.socket.destroyed;
        if (!aborted) send(response, stampRequestId(result, exchange.requestId));
        logAccess({
          method: request.method ?? 'GET',
          path: url.pathname,
          route: exchange.route,
          status: aborted ? null : result.statusCode,
          durationMs: performance.now() - startedAt,
          principalId: exchange.principalId,
          requestId: exchange.requestId,
        });
      });
  }).on('clientError', answerUnparseable);
