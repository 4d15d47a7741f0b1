import type { APIGatewayProxyEvent } from 'aws-lambda';

/** API Gateway's id of the request: the one in its access log and in the function's log lines. */
export const requestIdOf = (event: Pick<APIGatewayProxyEvent, 'requestContext'> | undefined): string | undefined =>
  event?.requestContext?.requestId || undefined;
