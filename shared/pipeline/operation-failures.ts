import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { matchPath } from '../api/path-template';
import { routeName } from '../api/route-name';
import { methodsOf, routesOf, type Family } from '../api/route-table';
import { metrics } from '../observability/metrics';

/** The metric's dimension naming the route (`routeName`), beside `service` and `stage`. */
export const OPERATION_DIMENSION = 'operation';

/**
 * An answer the operation failed to give: a 500 (a defect, or a permission the function lacks) or a 503 (a
 * dependency throttled or down). A 501 is a route not built yet, an answer rather than a failure.
 */
export const isOperationFailure = (statusCode: number): boolean => statusCode >= 500 && statusCode !== 501;

/**
 * Counts each failed answer as `OperationFailures` under the route's name, so one operation failing on every call
 * pages even while the API-wide 5xx rate stays low. Registered before the error envelope, so it sees the status
 * the caller gets. Only inside Lambda, as every metric.
 */
export const operationFailures = (family: Family): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => {
  const routes = routesOf(family);
  const count = async (request: middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult>) => {
    const status = request.response?.statusCode;
    if (status === undefined || !isOperationFailure(status)) return;
    if (!process.env.AWS_LAMBDA_FUNCTION_NAME || process.env.LOG_LEVEL === 'silent') return;
    const { httpMethod, path } = request.event;
    const route = routes.find(
      (candidate) => methodsOf(candidate).includes(httpMethod as never) && matchPath(candidate.path, path),
    );
    if (!route) return;
    const single = metrics.singleMetric();
    single.addDimension(OPERATION_DIMENSION, routeName(route));
    single.addMetric('OperationFailures', MetricUnit.Count, 1);
  };
  return { after: count, onError: count };
};
