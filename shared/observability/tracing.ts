import type middy from '@middy/core';

/** Whether the stack turned X-Ray tracing on for this function (`-c tracing=true`), inside Lambda. */
export const tracingEnabled = (): boolean =>
  process.env.POWERTOOLS_TRACE_ENABLED === 'true' && Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);

/** An SDK client whose calls become subsegments of the invocation's trace. */
export interface TracedClient {
  middlewareStack: unknown;
}

/**
 * Powertools Tracer as middy middleware (none when tracing is off): the invocation as a segment with the cold start and service annotated,
 * and every call of the given SDK clients as a subsegment. Loaded only when tracing is on: the X-Ray SDK it brings
 * would otherwise cost every cold start its loading.
 */
export const tracing = <Event, Result>(clients: readonly TracedClient[]): middy.MiddlewareObj<Event, Result>[] => {
  if (!tracingEnabled()) return [];
  let loaded: Promise<middy.MiddlewareObj<Event, Result>> | undefined;
  const inner = () =>
    (loaded ??= Promise.all([
      import('@aws-lambda-powertools/tracer'),
      import('@aws-lambda-powertools/tracer/middleware'),
    ]).then(([{ Tracer }, { captureLambdaHandler }]) => {
      const tracer = new Tracer({ serviceName: 'delivery-limits' });
      for (const client of clients) tracer.captureAWSv3Client(client as never);
      // answers carry limits and counters: they stay out of traces
      return captureLambdaHandler(tracer, { captureResponse: false }) as middy.MiddlewareObj<Event, Result>;
    }));
  return [
    {
      before: async (request) => (await inner()).before?.(request),
      after: async (request) => (await inner()).after?.(request),
      onError: async (request) => (await inner()).onError?.(request),
    },
  ];
};
