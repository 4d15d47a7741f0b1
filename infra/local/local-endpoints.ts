import type { APIGatewayProxyResult } from 'aws-lambda';
import { importCatalog } from '../../shared/catalog/catalog-import';
import { jsonResponse } from '../../shared/http/response';
import type { SQSEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { createRecorder } from '../../functions/delivery-recorder/handler';
import { createHandler as createFlush } from '../../functions/reset-flush/handler';
import type { Dependencies } from '../../shared/runtime/dependencies';
import type { ControllableClock } from './controllable-clock';
import type { InMemoryEvents } from './in-memory-sinks';
import type { InProcessResetQueue } from './in-process-reset-queue';
import type { OutboxMailer } from './outbox-mailer';

/** `/_local/*`: endpoints of the local server only, never deployed. Outside tools depend on them. */
export interface LocalEndpoints {
  handle(method: string, path: string, body: string): Promise<APIGatewayProxyResult>;
}

type LocalHandler = (body: string) => Promise<APIGatewayProxyResult>;

const failure = (statusCode: number, message: string, extra: Record<string, unknown> = {}) =>
  jsonResponse(statusCode, { success: false, message, ...extra });

const parseJson = (body: string): { value: unknown } | { error: APIGatewayProxyResult } => {
  try {
    return { value: JSON.parse(body) };
  } catch {
    return { error: failure(400, 'The body is not valid JSON') };
  }
};

export interface LocalEndpointParts {
  dependencies: Dependencies;
  clock: ControllableClock;
  outbox: OutboxMailer;
  resetQueue: InProcessResetQueue;
  events: InMemoryEvents;
}

/** The recorder Lambda, fed the posted events as an SQS batch of one message per event. */
const deliveryEndpoint = (dependencies: Dependencies): LocalHandler => {
  const recorder = createRecorder(dependencies);
  return async (body) => {
    const parsed = parseJson(body);
    if ('error' in parsed) return parsed.error;
    if (!Array.isArray(parsed.value)) return failure(400, 'Send a JSON array of delivery events');
    const records = parsed.value.map((event) => ({ messageId: randomUUID(), body: JSON.stringify(event) }));
    const { response, summary } = await recorder({ Records: records } as unknown as SQSEvent);
    return jsonResponse(200, {
      ...summary,
      failedMessageIds: response.batchItemFailures.map((failure) => failure.itemIdentifier),
    });
  };
};

/** The reset-flush Lambda, draining the in-process queue now rather than at the top of the hour. */
const flushEndpoint = (dependencies: Dependencies, queue: InProcessResetQueue): LocalHandler => {
  const flush = createFlush(dependencies, queue);
  return async () => {
    try {
      return jsonResponse(200, await flush({}));
    } finally {
      queue.release();
    }
  };
};

const clockEndpoints = (clock: ControllableClock): Record<string, LocalHandler> => ({
  'GET /_local/clock': async () => jsonResponse(200, { now: clock.now().toISOString() }),
  'POST /_local/clock': async (body) => {
    const parsed = parseJson(body);
    if ('error' in parsed) return parsed.error;
    const request = parsed.value as { now?: unknown; advanceSeconds?: unknown } | null;
    if (request && typeof request === 'object' && 'now' in request) {
      if (request.now === null) clock.set(null);
      else if (typeof request.now === 'string' && !Number.isNaN(Date.parse(request.now)))
        clock.set(new Date(request.now));
      else
        return failure(400, 'now must be an ISO-8601 instant or null', { errors: { now: 'not an ISO-8601 instant' } });
    } else if (request && typeof request === 'object' && 'advanceSeconds' in request) {
      if (typeof request.advanceSeconds !== 'number' || !Number.isFinite(request.advanceSeconds))
        return failure(400, 'advanceSeconds must be a number', { errors: { advanceSeconds: 'not a number' } });
      clock.advance(request.advanceSeconds);
    } else {
      return failure(400, 'Send {"now": "<ISO>"}, {"now": null} or {"advanceSeconds": N}');
    }
    return jsonResponse(200, { now: clock.now().toISOString() });
  },
});

export const createLocalEndpoints = (
  parts: LocalEndpointParts,
  extra: Record<string, LocalHandler> = {},
): LocalEndpoints => {
  const endpoints: Record<string, LocalHandler> = {
    'GET /_local/health': async () => jsonResponse(200, { ok: true }),
    'POST /_local/catalog': async (body) => {
      const parsed = parseJson(body);
      if ('error' in parsed) return parsed.error;
      const result = await importCatalog(parts.dependencies.store, parsed.value);
      return result.ok
        ? jsonResponse(200, { success: true, imported: result.counts })
        : failure(400, 'The catalog is invalid; nothing was written', { problems: result.problems });
    },
    'GET /_local/outbox': async () => jsonResponse(200, parts.outbox.messages),
    'GET /_local/events': async () => jsonResponse(200, parts.events.published),
    'POST /_local/delivery': deliveryEndpoint(parts.dependencies),
    'POST /_local/flush': flushEndpoint(parts.dependencies, parts.resetQueue),
    ...clockEndpoints(parts.clock),
    ...extra,
  };
  return {
    handle: async (method, path, body) => {
      const handler = endpoints[`${method} ${path}`];
      if (handler) return handler(body);
      const known = Object.keys(endpoints).filter((key) => key.endsWith(` ${path}`));
      return known.length > 0
        ? failure(405, `Method ${method} is not allowed here`)
        : failure(404, `No local endpoint ${path}`);
    },
  };
};
