import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { REQUEST_ID_HEADER } from '../api/browser-headers';
import { corsHeaders, type CorsPolicy } from './cors';
import { headerValue } from './parameters';
import { requestIdOf } from './request-id';

/** Headers a step of the pipeline decided for the answer to this request, whatever the answer turns out to be. */
const decided = new WeakMap<object, Record<string, string>>();

/** Adds headers to the answer to `event`, an error's included (the rate-limit fields of a metered caller). */
export const addAnswerHeaders = (event: object, headers: Record<string, string>): void => {
  decided.set(event, Object.assign({}, decided.get(event), headers));
};

/** Every answer of a family handler, errors included, names its request and carries the CORS headers. */
export const answerHeaders = (policy: CorsPolicy): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => {
  const add = async (request: middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult>) => {
    const { event, response } = request;
    if (!response) return;
    const requestId = requestIdOf(event);
    // a new answer: an operation may hand back one it shares between calls
    const headers = Object.assign(
      {},
      decided.get(event),
      response.headers,
      corsHeaders(policy, headerValue(event.headers, 'origin')),
      requestId ? { [REQUEST_ID_HEADER]: requestId } : undefined,
    );
    request.response = Object.assign({}, response, { headers });
  };
  return { after: add, onError: add };
};
