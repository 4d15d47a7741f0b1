/** Request headers a browser may send with an API call: one list for the stack's preflights and the local server's. */
export const PREFLIGHT_HEADERS = 'Content-Type,X-Api-Key';
