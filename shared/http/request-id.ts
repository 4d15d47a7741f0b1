import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { REQUEST_ID_HEADER } from '../api/browser-headers';

/** API Gateway's id of the request: the one in its access log and in the function's log lines. */
export const requestIdOf = (event: Pick<APIGatewayProxyEvent, 'requestContext'> | undefined): string | undefined =>
  event?.requestContext?.requestId || undefined;

/** Every answer of a family handler names its request, errors included. */
export const requestIdHeader = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => {
  const stamp = async (request: middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult>) => {
    const requestId = requestIdOf(request.event);
    if (request.response && requestId)
      request.response = {
        ...request.response,
        headers: { ...request.response.headers, [REQUEST_ID_HEADER]: requestId },
      };
  };
  return { after: stamp, onError: stamp };
};
