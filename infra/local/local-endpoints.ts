import type { APIGatewayProxyResult } from 'aws-lambda';
import { importCatalog } from '../../shared/catalog/catalog-import';
import { jsonResponse } from '../../shared/http/response';
import { clearWarmCaches } from '../../shared/support/warm-cache';
import { createHandler as createFlush } from '../../functions/reset-flush/handler';
import type { Dependencies } from '../../shared/runtime/dependencies';
import type { ControllableClock } from './controllable-clock';
import type { InMemoryDeadLetters, InMemoryEvents, InMemoryStreamDeadLetters } from './in-memory-sinks';
import type { InProcessResetQueue } from './in-process-reset-queue';
import type { OutboxMailer } from './outbox-mailer';
import { redriveEndpoint } from './redrive-endpoint';
import { shardsEndpoint } from './shards-endpoint';
import { STREAM_TRIGGER } from '../../shared/table/stream-trigger';
import type { WriteFaults } from './write-faults';
import type { LocalWebhooks } from './local-webhooks';
import { webhookEndpoints } from './webhook-endpoints';
import { asFunction } from './aws-request-log';
import { deliveryEndpoint } from './delivery-endpoint';
import { failure, parseJson, type LocalHandler } from './local-answers';
import { recordedResetSource } from './aws-request-hooks';

/** `/_local/*`: endpoints of the local server only, never deployed. Outside tools depend on them. */
export interface LocalEndpoints {
  handle(method: string, path: string, body: string): Promise<APIGatewayProxyResult>;
}

/** What the endpoints work with: the local service's ports and in-process stand-ins. */
export interface LocalEndpointParts {
  dependencies: Dependencies;
  clock: ControllableClock;
  outbox: OutboxMailer;
  resetQueue: InProcessResetQueue;
  events: InMemoryEvents;
  deadLetters: InMemoryDeadLetters;
  streamDeadLetters: InMemoryStreamDeadLetters;
  faults: WriteFaults;
  webhookDispatcher: LocalWebhooks;
  /** The table's stream, as the history-events function's trigger reads it (LimitChanged and LimitReached). */
  tableStream: { drain(): Promise<void> };
}

/** `/_local/faults`: which DynamoDB write requests fail from now on. */
const faultEndpoints = (faults: WriteFaults): Record<string, LocalHandler> => ({
  'GET /_local/faults': async () => jsonResponse(200, faults.state),
  'POST /_local/faults': async (body) => {
    const parsed = parseJson(body);
    if ('error' in parsed) return parsed.error;
    const { failWrites, loseAnswers = [] } = (parsed.value ?? {}) as { failWrites?: unknown; loseAnswers?: unknown };
    const counts = (list: unknown) =>
      Array.isArray(list) && list.every((n) => Number.isInteger(n) && n >= 1 && n <= 1_000_000);
    if (!counts(failWrites) || !counts(loseAnswers))
      return failure(
        400,
        'Send {"failWrites": [N, …], "loseAnswers": [N, …]}: positive whole numbers, counting write requests from 1',
        {
          errors: { [counts(failWrites) ? 'loseAnswers' : 'failWrites']: 'must be an array of positive whole numbers' },
        },
      );
    faults.set(failWrites as number[], loseAnswers as number[]);
    return jsonResponse(200, faults.state);
  },
});

/** The reset-flush Lambda, draining the in-process queue now rather than at the top of the hour. */
const flushEndpoint =
  (dependencies: Dependencies, queue: InProcessResetQueue): LocalHandler =>
  async () => {
    const session = queue.session();
    try {
      const flush = asFunction('reset-flush', createFlush(dependencies, recordedResetSource(session)));
      return jsonResponse(200, await flush({}));
    } finally {
      session.end();
    }
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

/**
 * Every dead-letter queue's messages, each with its queue, who sent it (`source`) and why: the delivery recorder's
 * (waiting for `POST /_local/redrive` when they have details), then the table stream's.
 */
const deadLetterList = ({ deadLetters, streamDeadLetters, webhookDispatcher }: LocalEndpointParts) => [
  ...deadLetters.messages.map(({ body, reason, details }) => ({
    queue: 'DeliveryEventsDlq',
    source: 'delivery-recorder',
    reason,
    body,
    ...(details ? { details } : {}),
  })),
  ...streamDeadLetters.letters.map((letter) => ({ queue: STREAM_TRIGGER.onFailure, ...letter })),
  ...webhookDispatcher.deadLetters,
];

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
      // what the catalog changed (keys, users, shares) counts at once locally, so that tests stay exact
      if (result.ok) clearWarmCaches();
      return result.ok
        ? jsonResponse(200, { success: true, imported: result.counts })
        : failure(400, 'The catalog is invalid; nothing was written', { problems: result.problems });
    },
    'GET /_local/outbox': async () => jsonResponse(200, parts.outbox.messages),
    'GET /_local/events': async () => {
      await parts.tableStream.drain();
      return jsonResponse(200, parts.events.published);
    },
    'GET /_local/limit-changes': async () => {
      await parts.tableStream.drain();
      return jsonResponse(200, parts.events.changes);
    },
    'GET /_local/dead-letters': async () => {
      await parts.tableStream.drain();
      return jsonResponse(200, deadLetterList(parts));
    },
    'POST /_local/delivery': deliveryEndpoint(parts),
    'POST /_local/redrive': redriveEndpoint(parts.dependencies, parts.deadLetters, parts.tableStream),
    ...faultEndpoints(parts.faults),
    'POST /_local/flush': flushEndpoint(parts.dependencies, parts.resetQueue),
    'POST /_local/shards': shardsEndpoint(parts.dependencies),
    ...clockEndpoints(parts.clock),
    ...webhookEndpoints(parts.webhookDispatcher, parts.tableStream),
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
