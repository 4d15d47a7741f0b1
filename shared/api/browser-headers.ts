/** Request headers a browser may send with an API call: one list for the stack's preflights and the local server's. */
export const PREFLIGHT_HEADERS = 'Content-Type,X-Api-Key,Idempotency-Key';

/** The response header naming the request (API Gateway's request id): on every answer, in every 5xx body too. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Response headers a browser's script may read: the request id, the rate-limit fields, a retry's pause, a replay. */
export const EXPOSED_HEADERS = `${REQUEST_ID_HEADER},RateLimit,RateLimit-Policy,Retry-After,Idempotent-Replayed`;

/**
 * The browser origins of the stack's `corsOrigins` setting and the functions' `CORS_ORIGINS`: comma-separated, spaces
 * around the commas allowed, empty entries dropped.
 */
export const originList = (origins: string | undefined): string[] =>
  (origins ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
