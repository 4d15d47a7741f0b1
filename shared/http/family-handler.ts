import middy from '@middy/core';
import httpRouterHandler, { type Route as MiddyRoute } from '@middy/http-router';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { routesOf, type Family, type Operation, type Route } from '../api/route-table';
import { matchPath } from '../api/path-template';
import { describeError, logger } from '../logger';
import { ApiError, notImplemented } from './api-error';
import { readParameters, rawBody, type Parameters } from './parameters';
import { errorResponse } from './response';

export const MAX_BODY_BYTES = 1024 * 1024;

/** What an operation handler is given: the matched route, its path parameters and every request parameter. */
export interface ApiRequest {
  route: Route;
  event: APIGatewayProxyEvent;
  pathParameters: Record<string, string>;
  parameters: Parameters;
}

export type OperationHandler = (request: ApiRequest) => Promise<APIGatewayProxyResult>;
export type Implementations = Partial<Record<Operation, OperationHandler>>;

const THROTTLING_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionConflictException',
]);

/** Any failure becomes the JSON envelope: client errors as they are, throttling as 503, the rest as 500. */
export const toErrorResponse = (error: unknown): APIGatewayProxyResult => {
  if (error instanceof ApiError) return errorResponse(error);
  if (error instanceof Error && THROTTLING_ERRORS.has(error.name)) {
    logger.warn('dependency throttled', describeError(error));
    return errorResponse(new ApiError(503, 'The service is busy; retry shortly', undefined, {}, { 'Retry-After': '1' }));
  }
  logger.error('unhandled error', describeError(error));
  return errorResponse(new ApiError(500, 'Internal error'));
};

const runOperation = (route: Route, handler: OperationHandler | undefined) => async (event: APIGatewayProxyEvent) => {
  if (Buffer.byteLength(rawBody(event)) > MAX_BODY_BYTES) throw new ApiError(413, 'The request body is larger than 1 MiB');
  const parameters = readParameters(event);
  if (!handler) throw notImplemented();
  return handler({ route, event, pathParameters: matchPath(route.path, event.path) ?? {}, parameters });
};

/**
 * The Lambda handler of one endpoint family: middy with @middy/http-router dispatching every route the route
 * table gives the family. Operations without an implementation answer 501 through the same path.
 */
export const createFamilyHandler = (family: Family, implementations: Implementations) => {
  const routes: MiddyRoute<APIGatewayProxyEvent, APIGatewayProxyResult>[] = routesOf(family).map((route) => ({
    method: route.method,
    path: route.path,
    handler: runOperation(route, implementations[route.operation]) as MiddyRoute<APIGatewayProxyEvent, APIGatewayProxyResult>['handler'],
  }));
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>()
    .use({
      onError: async (request) => {
        request.response = toErrorResponse(request.error);
      },
    })
    .handler(
      httpRouterHandler({
        routes,
        notFoundResponse: () => {
          throw new ApiError(404, 'No such route');
        },
      }) as never,
    );
};
