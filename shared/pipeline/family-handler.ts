import middy from '@middy/core';
import httpRouterHandler, { type Route as MiddyRoute } from '@middy/http-router';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { methodsOf, routesOf, type Family, type Operation, type Route } from '../api/route-table';
import { matchPath } from '../api/path-template';
import { ServiceBusy } from '../domain/errors';
import { beginInvocation, describeError, endInvocation, logger } from '../observability/logger';
import { authenticate, type AuthenticationPorts } from '../auth/authenticate';
import { hashCredentials } from '../auth/credentials';
import { refuseHashReplay, type ReleaseReplayGuard, type SignedRequest } from '../auth/hash-replay';
import { principalFromEvent, type Principal } from '../auth/principal';
import { partnerPlanFromEnvironment, spendPartnerQuota } from '../auth/partner-meter';
import type { UsagePlanLimits } from '../domain/metering/partner-quota';
import { ApiError, notImplemented, unauthorized } from '../http/api-error';
import { answerHeaders } from '../http/answer-headers';
import { NO_CORS, type CorsPolicy } from '../http/cors';
import { formBody } from '../http/form-body';
import { readParameters, type Parameters } from '../http/parameters';
import { errorResponse } from '../http/response';
import { requestIdOf } from '../http/request-id';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { metrics } from '../observability/metrics';
import { tracing } from '../observability/tracing';

/**
 * Every log line of an invocation names it (Lambda's request id and cold start, API Gateway's request id); in
 * Lambda, a cold start is counted and the invocation's metrics are published as it ends. Registered first, so
 * that its after and onError run last, once every other middleware has logged what it had to.
 */
const observability = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => {
  const publish = process.env.AWS_LAMBDA_FUNCTION_NAME ? logMetrics(metrics, { captureColdStartMetric: true }) : {};
  return {
    before: async (request) => {
      beginInvocation(request.context, requestIdOf(request.event));
      await publish.before?.(request as never);
    },
    after: async (request) => {
      await publish.after?.(request as never);
      endInvocation();
    },
    onError: async (request) => {
      await publish.onError?.(request as never);
      endInvocation();
    },
  };
};

/** What an operation handler is given: the matched route, its path parameters and every request parameter. */
export interface ApiRequest {
  route: Route;
  event: APIGatewayProxyEvent;
  pathParameters: Record<string, string>;
  parameters: Parameters;
  /** The caller, on every route the route table marks authenticated. */
  principal?: Principal;
}

export type OperationHandler = (request: ApiRequest) => Promise<APIGatewayProxyResult>;
export type Implementations = Partial<Record<Operation, OperationHandler>>;

/** Any failure becomes the JSON envelope: client errors as they are, throttling as 503, the rest as 500. */
/** The body parser refuses what it cannot read with a client error of its own (415); we answer 400, naming the body. */
const isRefusedBody = (error: unknown): boolean =>
  error instanceof Error &&
  (error as { expose?: boolean; statusCode?: number }).expose === true &&
  (error as { statusCode?: number }).statusCode === 415;

export const toErrorResponse = (error: unknown, requestId?: string): APIGatewayProxyResult => {
  if (error instanceof ApiError) return errorResponse(error, requestId);
  if (isRefusedBody(error))
    return errorResponse(new ApiError(400, 'Malformed form body', { errors: { body: 'not a URL-encoded form' } }));
  if (error instanceof ServiceBusy) {
    logger.warn('dependency throttled', describeError(error));
    return errorResponse(
      new ApiError(503, 'The service is busy; retry shortly', { headers: { 'Retry-After': '1' } }),
      requestId,
    );
  }
  logger.error('unhandled error', { requestId, ...describeError(error) });
  return errorResponse(new ApiError(500, 'Internal error'), requestId);
};

type MeteringPorts = AuthenticationPorts & { partnerPlan: UsagePlanLimits };

/**
 * The authorizer's principal, or, for a form request it let through, the hash parameters of the body checked
 * by the same authentication module. Runs before anything else the operation does.
 */
const resolvePrincipal = async (
  ports: MeteringPorts,
  event: APIGatewayProxyEvent,
  signed: SignedRequest,
): Promise<{ principal: Principal; releaseReplayGuard?: ReleaseReplayGuard }> => {
  const fromAuthorizer = principalFromEvent(event);
  const credentials = fromAuthorizer ? undefined : hashCredentials((name) => signed.parameters.get(name));
  if (!fromAuthorizer && !credentials) throw unauthorized();
  const principal = fromAuthorizer ?? (await authenticate(ports, credentials!));
  if (principal.method !== 'hash') return { principal };
  const { store, clock } = ports;
  // API Gateway metered this request on the anonymous plan: the partner's own quota is kept here
  if (!fromAuthorizer) await spendPartnerQuota(store, principal.userId, ports.partnerPlan, clock.now());
  const release = await refuseHashReplay(store, principal.userId, signed, clock.now());
  return { principal, ...(release ? { releaseReplayGuard: release } : {}) };
};

const runOperation =
  (route: Route, handler: OperationHandler | undefined, ports: MeteringPorts) =>
  async (event: APIGatewayProxyEvent) => {
    const parameters = readParameters(event);
    const pathParameters = matchPath(route.path, event.path) ?? {};
    const signed = { method: event.httpMethod, route: route.path, pathParameters, parameters };
    const { principal, releaseReplayGuard } = route.authenticated
      ? await resolvePrincipal(ports, event, signed)
      : { principal: undefined, releaseReplayGuard: undefined };
    if (!handler) throw notImplemented();
    try {
      return await handler({ route, event, pathParameters, parameters, principal });
    } catch (error) {
      // a failed operation changed nothing: the identical request may be sent again
      await releaseReplayGuard?.().catch((release) =>
        logger.warn('releasing a replay guard failed', describeError(release)),
      );
      throw error;
    }
  };

/** The principal of an authenticated route; its absence is a wiring error. */
export const principalOf = (request: ApiRequest): Principal => {
  if (!request.principal) throw new Error(`route ${request.route.operation} has no principal`);
  return request.principal;
};

/**
 * The Lambda handler of one endpoint family: middy with @middy/http-router dispatching every route the route
 * table gives the family. Operations without an implementation answer 501 through the same path.
 */
export const createFamilyHandler = (
  family: Family,
  implementations: Implementations,
  ports: AuthenticationPorts & { cors?: CorsPolicy; partnerPlan?: UsagePlanLimits },
) => {
  const metering = { ...ports, partnerPlan: ports.partnerPlan ?? partnerPlanFromEnvironment() };
  // HEAD is answered wherever GET is, by the same operation (API Gateway sends no body in a HEAD answer)
  const routes: MiddyRoute<APIGatewayProxyEvent, APIGatewayProxyResult>[] = routesOf(family).flatMap((route) =>
    methodsOf(route).map((method) => ({
      method,
      path: route.path,
      handler: runOperation(route, implementations[route.operation], metering) as MiddyRoute<
        APIGatewayProxyEvent,
        APIGatewayProxyResult
      >['handler'],
    })),
  );
  // middy runs onError handlers last-registered first: the envelope is made before the request id and the CORS
  // headers are added to it
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>()
    .use(tracing<APIGatewayProxyEvent, APIGatewayProxyResult>([ports.store.client]))
    .use(observability())
    .use(answerHeaders(ports.cors ?? NO_CORS))
    .use({
      onError: async (request) => {
        request.response = toErrorResponse(request.error, requestIdOf(request.event));
      },
    })
    .use(formBody())
    .handler(
      httpRouterHandler({
        routes,
        notFoundResponse: () => {
          throw new ApiError(404, 'No such route');
        },
      }) as never,
    );
};
