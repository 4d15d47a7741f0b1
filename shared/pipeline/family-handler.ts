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
import { IDEMPOTENCY_HEADER } from '../api/idempotency-headers';
import { beginIdempotentWrite, readIdempotencyKey, type IdempotentWrite } from '../auth/idempotent-writes';
import { principalFromEvent, type Principal } from '../auth/principal';
import { partnerPlanFromEnvironment, spendPartnerQuota } from '../auth/partner-meter';
import type { UsagePlanLimits } from '../domain/metering/partner-quota';
import { ApiError, notImplemented } from '../http/api-error';
import { credentialsMissing } from '../auth/credential-refusals';
import { addAnswerHeaders, answerHeaders } from '../http/answer-headers';
import { rateLimitFields } from '../domain/metering/partner-quota';
import { NO_CORS, type CorsPolicy } from '../http/cors';
import { formBody } from '../http/form-body';
import { headerValue, readParameters, type Parameters } from '../http/parameters';
import { errorResponse } from '../http/response';
import { requestIdOf } from '../http/request-id';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { metrics } from '../observability/metrics';
import { tracing } from '../observability/tracing';
import { operationFailures } from './operation-failures';

/**
 * Every log line of an invocation names it (Lambda's request id and cold start, API Gateway's request id); in
 * Lambda, a cold start is counted and the invocation's metrics are published as it ends, when it stored any:
 * Powertools warns on every publication of none, a log line on each invocation. Registered first, so that its
 * after and onError run last, once every other middleware has logged what it had to.
 */
const observability = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => {
  const publish = process.env.AWS_LAMBDA_FUNCTION_NAME ? logMetrics(metrics, { captureColdStartMetric: true }) : {};
  const publishStored = async (request: middy.Request, end?: (request: never) => unknown) => {
    if (metrics.hasStoredMetrics()) await end?.(request as never);
  };
  return {
    before: async (request) => {
      beginInvocation(request.context, requestIdOf(request.event));
      await publish.before?.(request as never);
    },
    after: async (request) => {
      await publishStored(request, publish.after);
      endInvocation();
    },
    onError: async (request) => {
      await publishStored(request, publish.onError);
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
  /** A write sent with an Idempotency-Key: its answer is best stored in the write's own transaction. */
  idempotency?: IdempotentWrite;
}

export type OperationHandler = (request: ApiRequest) => Promise<APIGatewayProxyResult>;
export type Implementations = Partial<Record<Operation, OperationHandler>>;

/** Any failure becomes the JSON envelope: client errors as they are, throttling as 503, the rest as 500. */
export const toErrorResponse = (error: unknown, requestId?: string): APIGatewayProxyResult => {
  if (error instanceof ApiError) return errorResponse(error, requestId);
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
 * by the same authentication module, then metered. Runs before anything else the operation does.
 */
const resolvePrincipal = async (
  ports: MeteringPorts,
  event: APIGatewayProxyEvent,
  signed: SignedRequest,
): Promise<Principal> => {
  const fromAuthorizer = principalFromEvent(event);
  if (fromAuthorizer) return fromAuthorizer;
  const credentials = hashCredentials((name) => signed.parameters.get(name));
  if (!credentials) throw credentialsMissing(ports.clock.now());
  const principal = await authenticate(ports, credentials);
  // API Gateway metered this request on the anonymous plan: the partner's own quota is kept here
  const standing = await spendPartnerQuota(ports.store, principal.userId, ports.partnerPlan, ports.clock.now());
  addAnswerHeaders(event, rateLimitFields(standing));
  return principal;
};

/** Methods that write: an Idempotency-Key makes them safe to retry. */
const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'DELETE']);

/** The stored answer of an earlier identical write, or this write's claim on its key; nothing without the header. */
const idempotencyOf = async (
  ports: MeteringPorts,
  signed: SignedRequest,
  event: APIGatewayProxyEvent,
  userId: number,
) => {
  if (!WRITE_METHODS.has(signed.method.toUpperCase())) return undefined;
  const key = readIdempotencyKey(headerValue(event.headers, IDEMPOTENCY_HEADER));
  if (key === undefined) return undefined;
  return beginIdempotentWrite(ports.store, { userId, key, request: signed, now: ports.clock.now() });
};

/** After a failure that changed nothing, the same request may be sent again: the guards let it go. */
const releaseAll = async (releases: (ReleaseReplayGuard | undefined)[]) => {
  for (const release of releases)
    await release?.().catch((error: unknown) => logger.warn('releasing a guard failed', describeError(error)));
};

/**
 * An authenticated operation: the key of an Idempotency-Key is claimed (or its stored answer given) before the
 * replay guard of hash writes, so that a retry of a stored write is answered, not refused as a replay.
 */
const runGuarded = async (
  ports: MeteringPorts,
  request: ApiRequest,
  handler: OperationHandler,
  signed: SignedRequest,
) => {
  const { principal, event } = request;
  const begun = await idempotencyOf(ports, signed, event, principal!.userId);
  if (begun && 'stored' in begun) return begun.stored;
  const idempotency = begun?.write;
  let releaseReplayGuard: ReleaseReplayGuard | undefined;
  try {
    if (principal!.method === 'hash')
      releaseReplayGuard = await refuseHashReplay(ports.store, principal!.userId, signed, ports.clock.now());
    const answer = await handler(idempotency ? { ...request, idempotency } : request);
    if (answer.statusCode >= 300) await releaseAll([idempotency?.release]);
    // a write that did not store its answer with it: stored now; if that fails, the claim lapses after a minute
    else
      await idempotency
        ?.settle(answer)
        .catch((error: unknown) => logger.warn('storing an answer failed', describeError(error)));
    return answer;
  } catch (error) {
    await releaseAll([releaseReplayGuard, idempotency?.release]);
    throw error;
  }
};

const runOperation =
  (route: Route, handler: OperationHandler | undefined, ports: MeteringPorts) =>
  async (event: APIGatewayProxyEvent) => {
    const parameters = readParameters(event);
    const pathParameters = matchPath(route.path, event.path) ?? {};
    const signed = { method: event.httpMethod, route: route.path, pathParameters, parameters };
    const principal = route.authenticated ? await resolvePrincipal(ports, event, signed) : undefined;
    if (!handler) throw notImplemented();
    const request: ApiRequest = { route, event, pathParameters, parameters, ...(principal ? { principal } : {}) };
    return principal ? runGuarded(ports, request, handler, signed) : handler(request);
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
  // middy runs onError handlers last-registered first: the envelope is made before its failure is counted and
  // before the request id and the CORS headers are added to it
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>()
    .use(tracing<APIGatewayProxyEvent, APIGatewayProxyResult>([ports.store.client]))
    .use(observability())
    .use(answerHeaders(ports.cors ?? NO_CORS))
    .use(operationFailures(family))
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
