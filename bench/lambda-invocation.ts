import type {
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { buildAuthorizerEvent, buildProxyEvent, lambdaContext } from '../infra/local/api-gateway-event';
import { createFamilyHandlers, createLocalAuthorizer } from '../infra/local/family-handlers';
import type { LocalService } from '../infra/local/local-service';
import { authorize } from '../infra/local/local-server';
import { matchPath } from '../shared/api/path-template';
import { ROUTES, type Route } from '../shared/api/route-table';
import type { ResetQueue } from '../shared/ports/reset-queue';
import type { TableStore } from '../shared/adapters/dynamodb/table-store';
import type { BenchRequest } from './operations';

/** An invocation as API Gateway has it ready: the route, its proxy event, the authorizer's event, the Lambda context. */
export interface PreparedInvocation {
  route: Route;
  event: APIGatewayProxyEvent;
  /** On an authenticated route. */
  authorizerEvent?: APIGatewayRequestAuthorizerEvent;
  context: Context;
}

/** An invocation's answer, and the time the functions took: the authorizer's invocation and the family's. */
export interface Invoked {
  result: APIGatewayProxyResult;
  functionsMs: number;
  /** The process's processor time (user and system, µs) over each of the two invocations. */
  cpuUs: { authorizer: number; family: number };
}

/** API Gateway's part of a request: the route it matches, the events it builds, the Lambda context. */
export const prepareInvocation = (request: BenchRequest, requestId: string): PreparedInvocation => {
  const url = new URL(request.path, 'http://localhost');
  const route = ROUTES.find(
    (candidate) => candidate.method === request.method && matchPath(candidate.path, url.pathname),
  );
  if (!route) throw new Error(`no route for ${request.method} ${url.pathname}`);
  const event = buildProxyEvent(
    {
      method: request.method,
      url,
      headers: request.headers,
      body: request.body ?? '',
      sourceIp: '127.0.0.1',
      receivedAt: new Date(),
      requestId,
    },
    route,
  );
  return {
    route,
    event,
    ...(route.authenticated ? { authorizerEvent: buildAuthorizerEvent(event) } : {}),
    context: lambdaContext(route.family, 29_000),
  };
};

/**
 * The API's functions as Lambda runs them, in this process and without HTTP: the authorizer, then the family's
 * handler, built by the factories the functions export on the local service's dependencies, with the table store
 * and the reset queue given. `prepare` is API Gateway's part (routing, building the events), done before the clock
 * starts; `invoke` times ours.
 */
export const lambdaInvocations = (service: LocalService, aws: { store: TableStore; resetQueue: ResetQueue }) => {
  const dependencies = { ...service.dependencies, ...aws };
  const handlers = createFamilyHandlers(dependencies);
  const authorizer = createLocalAuthorizer(dependencies);
  return {
    prepare: prepareInvocation,

    /**
     * The authorizer, then the family's handler, each timed on its own: what API Gateway does between them
     * (reading the policy, putting the authorizer's context into the proxy event) is not the functions' time.
     */
    async invoke({ route, event, authorizerEvent, context }: PreparedInvocation): Promise<Invoked> {
      let functionsMs = 0;
      const cpuUs = { authorizer: 0, family: 0 };
      // the processor time is read outside the wall-clock window, so that its system call is not timed
      const timed = async <T>(part: keyof typeof cpuUs, work: () => Promise<T>): Promise<T> => {
        const cpu = process.cpuUsage();
        const started = performance.now();
        try {
          return await work();
        } finally {
          functionsMs += performance.now() - started;
          const { user, system } = process.cpuUsage(cpu);
          cpuUs[part] += user + system;
        }
      };
      const refusal = authorizerEvent
        ? await authorize((input) => timed('authorizer', () => authorizer(input)), event, authorizerEvent)
        : undefined;
      const result = refusal ?? (await timed('family', () => handlers[route.family](event, context)));
      return { result, functionsMs, cpuUs };
    },
  };
};
