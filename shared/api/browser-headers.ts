/** Request headers a browser may send with an API call: one list for the stack's preflights and the local server's. */
export const PREFLIGHT_HEADERS = 'Content-Type,X-Api-Key';

/** The response header naming the request (API Gateway's request id): on every answer, in every 5xx body too. */
export const REQUEST_ID_HEADER = 'X-Request-Id';
