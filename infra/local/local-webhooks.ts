import { randomUUID } from 'node:crypto';
import { HttpsWebhookEndpoint, WEBHOOK_TIMEOUT_MS } from '../../shared/adapters/webhooks/https-endpoint';
import { LIMIT_CHANGED, LIMIT_REACHED } from '../../shared/domain/event-names';
import { deliveryMessageBody } from '../../shared/domain/webhooks/delivery-message';
import type { Clock } from '../../shared/ports/clock';
import type { WebhookDelivery, WebhookEndpoint } from '../../shared/ports/webhook-deliveries';
import type { WebhookSubscriptions } from '../../shared/ports/webhook-subscriptions';
import type { TableStore } from '../../shared/adapters/dynamodb/table-store';
import { exactJson } from '../../shared/support/exact-json';
import { dispatchBatch, type DispatcherPorts, type RecordOutcome } from '../../shared/webhooks/dispatch-batch';
import { WEBHOOK_QUEUES } from '../cdk/webhook-settings';
import { asFunction, noteAwsRequests } from './aws-request-log';
import { InProcessSqsQueue } from './in-process-sqs-queue';

export interface LocalDeliveryAttempt {
  at: string;
  ok: boolean;
  status?: number;
  error?: string;
}

/** One delivery as `GET /_local/webhook-deliveries` lists it. */
export interface LocalDelivery {
  id: string;
  subscriptionId: string;
  event: string;
  webhookId?: string;
  state: 'pending' | 'delivered' | 'skipped' | 'deadLettered';
  reason?: string;
  attempts: LocalDeliveryAttempt[];
  nextAttemptAt?: string;
}

export interface LocalWebhookDeadLetter {
  queue: 'WebhookEventsDlq' | 'WebhookDeliveriesDlq';
  source: 'webhook-dispatcher';
  reason: string;
  body: string;
}

const dispatcher = asFunction('webhook-dispatcher', dispatchBatch);

/**
 * The webhook dispatcher in process: events the in-memory bus publishes go to an events queue, the same
 * dispatcher fans them out to a deliveries queue and delivers from it, to any URL on this machine. Both queues
 * keep time by the local clock, so a retry comes when `POST /_local/clock` has moved it past the schedule's step.
 */
export class LocalWebhooks {
  readonly deadLetters: LocalWebhookDeadLetter[] = [];
  private readonly deliveries = new Map<string, LocalDelivery>();
  private readonly eventsQueue: InProcessSqsQueue;
  private readonly deliveriesQueue: InProcessSqsQueue;
  private readonly ports: DispatcherPorts;
  private current: LocalDelivery | undefined;
  private turn: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(parts: { store: TableStore; clock: Clock; subscriptions: WebhookSubscriptions }) {
    const { clock } = parts;
    const visibility = { visibilityTimeoutSeconds: WEBHOOK_QUEUES.visibilityTimeoutSeconds };
    this.eventsQueue = new InProcessSqsQueue(clock, {
      ...visibility,
      maxReceiveCount: WEBHOOK_QUEUES.eventMaxReceiveCount,
    });
    this.deliveriesQueue = new InProcessSqsQueue(clock, {
      ...visibility,
      maxReceiveCount: WEBHOOK_QUEUES.deliveryMaxReceiveCount,
    });
    this.ports = {
      ...parts,
      deliveries: {
        send: async (deliveries) => this.enqueue(deliveries),
        retryAfter: async (receiptHandle, seconds) => {
          noteAwsRequests([{ action: 'sqs:ChangeMessageVisibility', target: 'WEBHOOK_DELIVERIES_QUEUE_URL' }]);
          this.deliveriesQueue.hide(receiptHandle, seconds);
        },
      },
      endpoint: this.recording(new HttpsWebhookEndpoint({ anyUrl: true, timeoutMs: WEBHOOK_TIMEOUT_MS }), clock),
      deadLetters: {
        send: async (body, reason) => {
          noteAwsRequests([{ action: 'sqs:SendMessage', target: 'WEBHOOK_DELIVERIES_DLQ_URL' }]);
          this.deadLetters.push({ queue: 'WebhookDeliveriesDlq', source: 'webhook-dispatcher', reason, body });
        },
      },
    };
  }

  /**
   * What the bus's rule sends the events queue: the EventBridge envelope, the detail's numbers exact. Taken at once,
   * as Lambda's long poll of a queue takes a message within moments.
   */
  publish(detailType: typeof LIMIT_REACHED | typeof LIMIT_CHANGED, events: readonly object[]): void {
    for (const event of events)
      this.eventsQueue.send(
        `{"version":"0","id":"${randomUUID()}","detail-type":"${detailType}","source":"delivery-limits",` +
          `"time":"${new Date().toISOString()}","detail":${exactJson(event)}}`,
      );
    void this.runDue().catch(() => undefined);
  }

  /** Attempts what is due every `intervalMs`, as Lambda polls its queues, until `stop`. */
  poll(intervalMs: number): this {
    this.timer = setInterval(() => void this.runDue().catch(() => undefined), intervalMs);
    this.timer.unref();
    return this;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.turn;
  }

  list(): LocalDelivery[] {
    return [...this.deliveries.values()];
  }

  /** Runs every message visible now through the dispatcher, one at a time, until none is left in sight. */
  runDue(): Promise<void> {
    const work = async () => {
      for (;;) {
        const fromEvents = this.eventsQueue.receive();
        const record = fromEvents ?? this.deliveriesQueue.receive();
        if (!record) return;
        this.current = this.deliveries.get(record.messageId);
        const { outcomes } = await dispatcher([record], this.ports);
        this.current = undefined;
        this.settle(fromEvents ? this.eventsQueue : this.deliveriesQueue, outcomes[0]!, record.body);
      }
    };
    const run = this.turn.then(work, work);
    this.turn = run.catch(() => undefined);
    return run;
  }

  /** `npm run webhooks -- replay` locally: every dead-lettered delivery back in the deliveries queue, as it was. */
  replay(): number {
    const taken = this.deadLetters.filter((letter) => letter.queue === 'WebhookDeliveriesDlq');
    this.deadLetters.splice(
      0,
      this.deadLetters.length,
      ...this.deadLetters.filter((letter) => !taken.includes(letter)),
    );
    for (const letter of taken) this.track(this.deliveriesQueue.send(letter.body), letter.body);
    return taken.length;
  }

  private enqueue(deliveries: readonly WebhookDelivery[]): void {
    noteAwsRequests([{ action: 'sqs:SendMessage', target: 'WEBHOOK_DELIVERIES_QUEUE_URL' }]);
    for (const delivery of deliveries) {
      const body = deliveryMessageBody(delivery);
      this.track(this.deliveriesQueue.send(body), body);
    }
  }

  private track(id: string, body: string): void {
    const { subscriptionId, kind } = JSON.parse(body) as { subscriptionId: string; kind: string };
    this.deliveries.set(id, { id, subscriptionId, event: kind, state: 'pending', attempts: [] });
  }

  private settle(queue: InProcessSqsQueue, outcome: RecordOutcome, body: string): void {
    const failed = outcome.kind === 'delivery' && outcome.outcome.state === 'failed' ? outcome.outcome : undefined;
    const exhausted = queue.settle(outcome.messageId, outcome.kind === 'error' || (!!failed && !failed.disabled));
    if (exhausted) {
      const dlq = queue === this.eventsQueue ? 'WebhookEventsDlq' : 'WebhookDeliveriesDlq';
      const reason = `received ${exhausted.receiveCount} times`;
      this.deadLetters.push({ queue: dlq, source: 'webhook-dispatcher', reason, body });
    }
    const entry = this.deliveries.get(outcome.messageId);
    if (!entry || outcome.kind === 'fanOut') return;
    delete entry.nextAttemptAt;
    if (outcome.kind === 'deadLettered' || outcome.kind === 'error') entry.reason = outcome.reason;
    if (outcome.kind === 'delivery' && outcome.outcome.state === 'skipped') entry.reason = outcome.outcome.reason;
    if (outcome.kind === 'delivery' && outcome.outcome.state !== 'skipped') entry.webhookId = outcome.outcome.webhookId;
    entry.state =
      outcome.kind === 'deadLettered' || exhausted || failed?.disabled
        ? 'deadLettered'
        : outcome.kind === 'delivery' && outcome.outcome.state !== 'failed'
          ? outcome.outcome.state
          : 'pending';
    if (entry.state === 'pending' && failed?.retryInSeconds !== undefined)
      entry.nextAttemptAt = new Date(
        Date.parse(entry.attempts.at(-1)!.at) + failed.retryInSeconds * 1000,
      ).toISOString();
  }

  private recording(endpoint: WebhookEndpoint, clock: Clock): WebhookEndpoint {
    return {
      post: async (request) => {
        const at = clock.now().toISOString();
        const result = await endpoint.post(request);
        this.current?.attempts.push(
          result.ok
            ? { at, ok: true, status: result.status }
            : {
                at,
                ok: false,
                ...(result.status !== undefined ? { status: result.status } : {}),
                error: result.reason,
              },
        );
        return result;
      },
    };
  }
}
