import { REQUEST_ID_HEADER } from '../api/browser-headers';
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { headerValue } from './parameters';

/** The browser origins the UI is served from; none, no CORS. */
export interface CorsPolicy {
  allowedOrigins: readonly string[];
}

export const NO_CORS: CorsPolicy = { allowedOrigins: [] };

/** The CORS headers of an answer to a request from `origin`: for an allowed origin only, and always `Vary: Origin`. */
export const corsHeaders = (policy: CorsPolicy, origin: string | undefined): Record<string, string> => {
  if (policy.allowedOrigins.length === 0) return {};
  if (origin === undefined || !policy.allowedOrigins.includes(origin)) return { Vary: 'Origin' };
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    // a UI may read the request id to quote it
    'Access-Control-Expose-Headers': REQUEST_ID_HEADER,
    Vary: 'Origin',
  };
};

/** Adds the CORS headers to every answer of a family handler, errors included: once, for every route. */
export const corsMiddleware = (
  policy: CorsPolicy,
): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => {
  const addHeaders = async (request: { event: APIGatewayProxyEvent; response: APIGatewayProxyResult | null }) => {
    if (!request.response) return;
    const headers = corsHeaders(policy, headerValue(request.event.headers, 'origin'));
    request.response.headers = { ...request.response.headers, ...headers };
  };
  return { after: addHeaders, onError: addHeaders };
};
