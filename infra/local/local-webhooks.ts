import { randomUUID } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';
import { HttpsWebhookEndpoint } from '../../shared/adapters/webhooks/https-endpoint';
import { WEBHOOK_TIMEOUT_MS } from '../../shared/domain/webhooks/retry-schedule';
import { LIMIT_CHANGED, LIMIT_REACHED } from '../../shared/domain/event-names';
import { deliveryMessageBody } from '../../shared/domain/webhooks/delivery-message';
import type { Clock } from '../../shared/ports/clock';
import type { WebhookDeliveryQueue, WebhookEndpoint } from '../../shared/ports/webhook-deliveries';
import type { WebhookSubscriptions } from '../../shared/ports/webhook-subscriptions';
import type { TableStore } from '../../shared/adapters/dynamodb/table-store';
import { exactJson } from '../../shared/support/exact-json';
import { dispatchBatch, type DispatcherPorts, type RecordOutcome } from '../../shared/webhooks/dispatch-batch';
import { DEVELOPMENT_LOAD } from '../cdk/load-settings';
import { dispatcherSizing } from '../cdk/push-path';
import { WEBHOOK_LANES, WEBHOOK_QUEUES } from '../cdk/webhook-settings';
import { asFunction, noteAwsRequests } from './aws-request-log';
import { InProcessSqsQueue } from './in-process-sqs-queue';
import { LocalDeliveryList, type LocalDelivery } from './local-delivery-list';

export type { LocalDelivery };

export interface LocalWebhookDeadLetter {
  queue: 'WebhookEventsDlq' | 'WebhookDeliveriesDlq';
  source: 'webhook-dispatcher';
  reason: string;
  body: string;
}

const dispatcher = asFunction('webhook-dispatcher', dispatchBatch);

/** The triggers of a development stage, as deployed: so many messages of each queue in flight at once. */
const LOCAL_TRIGGERS = dispatcherSizing(DEVELOPMENT_LOAD);

type LaneName = 'fast' | 'slow';

/**
 * The webhook dispatcher in process, as Lambda runs it on its three queues: events the in-memory bus publishes are
 * fanned out to the fast lane, deliveries attempted there, and those of failing subscriptions (and every retry)
 * in the slow lane. Every message is handled as soon as it is in sight, many at once (a development stage's
 * containers times their batch, each queue's own), so that a receiver that never answers holds up only its own
 * deliveries. The queues keep time by the
 * local clock: a retry comes when `POST /_local/clock` has moved it past the schedule's step.
 */
export class LocalWebhooks {
  readonly deadLetters: LocalWebhookDeadLetter[] = [];
  private readonly deliveryList = new LocalDeliveryList();
  private readonly running = new Map<InProcessSqsQueue, number>();
  private readonly events: InProcessSqsQueue;
  private readonly lanes: Record<LaneName, InProcessSqsQueue>;
  private readonly ports: DispatcherPorts;
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(parts: { store: TableStore; clock: Clock; subscriptions: WebhookSubscriptions }) {
    const { clock } = parts;
    const visibilityTimeoutSeconds = WEBHOOK_QUEUES.visibilityTimeoutSeconds;
    this.events = new InProcessSqsQueue(clock, {
      name: 'webhook-events',
      visibilityTimeoutSeconds,
      maxReceiveCount: WEBHOOK_QUEUES.eventMaxReceiveCount,
    });
    this.lanes = {
      fast: new InProcessSqsQueue(clock, {
        name: 'webhook-deliveries',
        visibilityTimeoutSeconds,
        ...WEBHOOK_LANES.fast,
      }),
      slow: new InProcessSqsQueue(clock, {
        name: 'webhook-slow-lane',
        visibilityTimeoutSeconds,
        ...WEBHOOK_LANES.slow,
      }),
    };
    this.ports = {
      ...parts,
      deliveries: this.lane('fast', 'WEBHOOK_DELIVERIES_QUEUE_URL'),
      slowLane: this.lane('slow', 'WEBHOOK_SLOW_LANE_QUEUE_URL'),
      endpoint: this.recording(new HttpsWebhookEndpoint({ anyUrl: true, timeoutMs: WEBHOOK_TIMEOUT_MS }), clock),
      deadLetters: {
        send: async (body, reason) => {
          noteAwsRequests([{ action: 'sqs:SendMessage', target: 'WEBHOOK_DELIVERIES_DLQ_URL' }]);
          this.deadLetters.push({ queue: 'WebhookDeliveriesDlq', source: 'webhook-dispatcher', reason, body });
          this.deliveryList.deadLettered();
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
      this.events.send(
        `{"version":"0","id":"${randomUUID()}","detail-type":"${detailType}","source":"delivery-limits",` +
          `"time":"${new Date().toISOString()}","detail":${exactJson(event)}}`,
      );
    this.pump();
  }

  /** Takes what comes into sight every `intervalMs`, as Lambda polls its queues, until `stop`. */
  poll(intervalMs: number): this {
    this.timer = setInterval(() => this.pump(), intervalMs);
    this.timer.unref();
    return this;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.idle();
  }

  list(): LocalDelivery[] {
    return this.deliveryList.list();
  }

  /** Handles every message in sight now, and what they put in sight, until none is left in sight or in flight. */
  async runDue(): Promise<void> {
    this.pump();
    await this.idle();
  }

  /** `npm run webhooks -- replay` locally: every dead-lettered delivery back in the fast lane, as it was. */
  replay(): number {
    const taken = this.deadLetters.filter((letter) => letter.queue === 'WebhookDeliveriesDlq');
    this.deadLetters.splice(
      0,
      this.deadLetters.length,
      ...this.deadLetters.filter((letter) => !taken.includes(letter)),
    );
    for (const letter of taken) this.deliveryList.track(this.lanes.fast.send(letter.body), letter.body, 'fast');
    return taken.length;
  }

  private async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Starts every message in sight, each queue up to its containers' worth at once. */
  private pump(): void {
    for (const [queue, { maxConcurrency, batchSize }] of [
      [this.events, LOCAL_TRIGGERS.events],
      [this.lanes.fast, LOCAL_TRIGGERS.fast],
      [this.lanes.slow, LOCAL_TRIGGERS.slow],
    ] as const)
      while ((this.running.get(queue) ?? 0) < maxConcurrency * batchSize) {
        const record = queue.receive();
        if (!record) break;
        this.running.set(queue, (this.running.get(queue) ?? 0) + 1);
        const work = this.handle(queue, record).finally(() => {
          this.running.set(queue, this.running.get(queue)! - 1);
          this.inFlight.delete(work);
          this.pump();
        });
        this.inFlight.add(work);
      }
  }

  private async handle(queue: InProcessSqsQueue, record: SQSRecord): Promise<void> {
    const { outcomes } = await this.deliveryList.handle(record.messageId, () => dispatcher([record], this.ports));
    const outcome: RecordOutcome = outcomes[0]!;
    const kept = outcome.kind === 'error' || (outcome.kind === 'delivery' && outcome.kept);
    const exhausted = queue.settle(outcome.messageId, kept);
    if (exhausted) {
      const dlq = queue === this.events ? 'WebhookEventsDlq' : 'WebhookDeliveriesDlq';
      this.deadLetters.push({
        queue: dlq,
        source: 'webhook-dispatcher',
        reason: `received ${exhausted.receiveCount} times`,
        body: record.body,
      });
      this.deliveryList.deadLettered(outcome.messageId);
    }
    const current = this.deliveryList.currentMessageOf(outcome.messageId);
    const waitingUntil =
      current === undefined
        ? undefined
        : (this.lanes.slow.visibleAtOf(current) ?? this.lanes.fast.visibleAtOf(current));
    this.deliveryList.settle(outcome, waitingUntil);
  }

  /** One lane as the dispatcher sees it: its sends and retries noted as the SQS requests they are on AWS. */
  private lane(
    name: LaneName,
    target: 'WEBHOOK_DELIVERIES_QUEUE_URL' | 'WEBHOOK_SLOW_LANE_QUEUE_URL',
  ): WebhookDeliveryQueue {
    const queue = this.lanes[name];
    return {
      send: async (deliveries, delaySeconds = 0) => {
        noteAwsRequests([{ action: 'sqs:SendMessage', target }]);
        for (const delivery of deliveries) {
          const body = deliveryMessageBody(delivery);
          this.deliveryList.track(queue.send(body, delaySeconds), body, name);
        }
        this.pump();
      },
      retryAfter: async (receiptHandle, seconds) => {
        noteAwsRequests([{ action: 'sqs:ChangeMessageVisibility', target }]);
        queue.hide(receiptHandle, seconds);
      },
      carries: (record) => record.eventSourceARN === queue.arn,
    };
  }

  private recording(endpoint: WebhookEndpoint, clock: Clock): WebhookEndpoint {
    return {
      post: async (request) => {
        const at = clock.now().toISOString();
        const result = await endpoint.post(request);
        this.deliveryList.attempted(at, result);
        return result;
      },
    };
  }
}
