import { EXPOSED_HEADERS, originList } from '../api/browser-headers';

/** The browser origins the UI is served from; none, no CORS. */
export interface CorsPolicy {
  allowedOrigins: readonly string[];
}

export const NO_CORS: CorsPolicy = { allowedOrigins: [] };

/** The policy of a `CORS_ORIGINS` list, read as the stack's `corsOrigins` setting is. */
export const corsPolicyOf = (origins: string | undefined): CorsPolicy => ({ allowedOrigins: originList(origins) });

/** The CORS headers of an answer to a request from `origin`: for an allowed origin only, and always `Vary: Origin`. */
export const corsHeaders = (policy: CorsPolicy, origin: string | undefined): Record<string, string> => {
  if (policy.allowedOrigins.length === 0) return {};
  if (origin === undefined || !policy.allowedOrigins.includes(origin)) return { Vary: 'Origin' };
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    // a UI may read the request id to quote it, and what is left of its quota
    'Access-Control-Expose-Headers': EXPOSED_HEADERS,
    Vary: 'Origin',
  };
};
