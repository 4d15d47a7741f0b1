import { REQUEST_ID_HEADER } from '../browser-headers';
import { codesOfStatus } from '../error-codes';
import { levelNamed } from '../../domain/levels';
import { REPLAYED_HEADER } from '../idempotency-headers';
import { isWriteRoute, type Route } from '../route-table';
import { ERROR_EXAMPLES } from './error-examples';
import { responseExamples } from './examples';
import type { OperationSpec } from './operation-specs';
import type { Convert, JsonValue } from './schema-converter';

const REQUEST_ID = { description: "API Gateway's id of the request", schema: { type: 'string' } };

const REPLAYED = {
  description:
    'On the answer stored for an earlier request under the same `Idempotency-Key`: this request wrote nothing.',
  schema: { type: 'string', enum: ['true'] },
};

/** Sent by the service to a partner signing in the form body, whom it meters itself (docs/quotas.md). */
const RATE_LIMIT = {
  'RateLimit-Policy': {
    description:
      "The caller's quotas (IETF draft httpapi-ratelimit-headers): the day's and the rate window's, `q` requests per `w` seconds. Sent to a partner signing in the form body; API Gateway meters the others and sends none.",
    schema: { type: 'string' },
    example: '"day";q=1000000;w=86400, "rate";q=500;w=2',
  },
  RateLimit: {
    description: 'What is left of each quota of `RateLimit-Policy` (`r`) and the seconds until it renews (`t`).',
    schema: { type: 'string' },
    example: '"day";r=999957;t=60, "rate";r=2;t=1',
  },
};

const RETRY_AFTER = { description: 'seconds to wait before retrying', schema: { type: 'integer' } };

/**
 * Errors a metered caller may get once the service has counted its request, so with the rate-limit fields: a 401
 * too, for a verified signature whose write was already received (`REQUEST_REPLAYED`).
 */
const METERED_ERRORS: ReadonlySet<number> = new Set([400, 401, 403, 404, 409, 422, 429, 500, 503]);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad input (`INVALID_PARAMETER`); `errors` names each offending parameter. Nothing was changed.',
  401: `A refused credential, its code telling what to fix: ${codesOfStatus('401', ['UNAUTHENTICATED'])} (\`UNAUTHENTICATED\` from token.do); \`serverTime\` is the server's time in Unix milliseconds.`,
  403: 'Authenticated but not allowed: `PERMISSION_REQUIRED` names the permission, `NO_ACCESS` a missing share.',
  404: 'Unknown route, entity or record (`NOT_FOUND`), or no limits to change (`LIMITS_NOT_SET`).',
  405: 'The path exists with other methods (`METHOD_NOT_ALLOWED`).',
  409: 'A write with this `Idempotency-Key` is still in flight (`IDEMPOTENCY_KEY_IN_USE`); retry after `Retry-After` seconds for its answer.',
  422: 'This `Idempotency-Key` was used within 24 hours for a different request (`IDEMPOTENCY_KEY_REUSED`); use a new key.',
  413: 'The body is over 1 MiB (`BODY_TOO_LARGE`).',
  429: 'Over a rate or a daily quota (`RATE_LIMITED`), answered by API Gateway or AWS WAF, or by the service for a partner signing in the form body; retry after `Retry-After` seconds, with backoff.',
  431: 'The request headers are too large (`HEADERS_TOO_LARGE`).',
  500: 'A fault of the service (`INTERNAL_ERROR`); quote `requestId`.',
  503: 'A dependency is busy or unavailable (`SERVICE_BUSY`), or credentials could not be checked (`AUTH_UNAVAILABLE`); retry after `Retry-After` seconds. Nothing was changed.',
  502: "API Gateway could not use the function's answer (`INTERNAL_ERROR`); quote `requestId`.",
  504: 'The function did not answer within 29 seconds (`INTERNAL_ERROR`, API Gateway); a write may have landed: read before retrying.',
};

/** What any route may answer besides its own errors: bad ids and parameters, methods, bodies, metering, faults. */
export const statusesOf = (route: Route, own: readonly number[]): number[] =>
  [
    ...new Set([
      ...own,
      400,
      ...(route.authenticated ? [401] : []),
      405,
      ...(route.method === 'GET' ? [] : [413]),
      // a write sent with an Idempotency-Key
      ...(route.method !== 'GET' && route.authenticated ? [409, 422] : []),
      429,
      431,
      500,
      502,
      503,
      504,
    ]),
  ].sort();

const LOGIN_JSONP = {
  schema: { type: 'string' },
  examples: {
    jsonp: { summary: 'callback=app.onLogin', value: '/**/app.onLogin({"success":true,"redirectUrl":"/index.do"});' },
  },
};

const SESSION_SET = { description: 'the session cookie, when the login succeeded', schema: { type: 'string' } };

export const successResponses = (route: Route, spec: OperationSpec, jsonSchema: Convert) => {
  const examples = responseExamples(route.operation, route.level ? levelNamed(route.level).idField : '');
  const json = { 'application/json': { schema: jsonSchema(spec.response), examples } };
  const headers = {
    [REQUEST_ID_HEADER]: REQUEST_ID,
    ...(route.authenticated ? RATE_LIMIT : {}),
    ...(isWriteRoute(route) ? { [REPLAYED_HEADER]: REPLAYED } : {}),
  };
  if (route.operation !== 'auth.login') return { '200': { description: 'Success', headers, content: json } };
  return {
    '200': {
      description: 'With json=true: the result as JSON; with callback: JSONP (failures too, with status 200)',
      headers: { [REQUEST_ID_HEADER]: REQUEST_ID, 'Set-Cookie': SESSION_SET },
      content: { ...json, 'application/javascript': LOGIN_JSONP },
    },
    '302': {
      description: 'Logged in; redirect to /index.do (neither json nor callback given)',
      headers: {
        [REQUEST_ID_HEADER]: REQUEST_ID,
        Location: { description: 'where the browser goes: /index.do', schema: { type: 'string' } },
        'Set-Cookie': SESSION_SET,
      },
    },
  };
};

/** The error answers the routes use, one component each, all in the error envelope. */
export const errorResponses = (statuses: readonly number[], errorSchema: JsonValue) =>
  Object.fromEntries(
    statuses.map((status) => [
      `Error${status}`,
      {
        description: ERROR_DESCRIPTIONS[status],
        headers: {
          [REQUEST_ID_HEADER]: REQUEST_ID,
          ...(status === 405 ? { Allow: { description: 'the methods the path has', schema: { type: 'string' } } } : {}),
          ...([409, 429, 503].includes(status) ? { 'Retry-After': RETRY_AFTER } : {}),
          ...(METERED_ERRORS.has(status) ? RATE_LIMIT : {}),
        },
        content: { 'application/json': { schema: errorSchema, examples: ERROR_EXAMPLES[status] } },
      },
    ]),
  );
