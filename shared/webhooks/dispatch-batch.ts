import type { SQSBatchResponse, SQSRecord } from 'aws-lambda';
import type { DeadLetterSink } from '../ports/dead-letters';
import type { WebhookDelivery, WebhookDeliveryQueue } from '../ports/webhook-deliveries';
import { deliver, type DeliverPorts, type DeliveryLane, type DeliveryOutcome } from './deliver';
import {
  deliveryOfMessage,
  eventOfBusMessage,
  isBusMessage,
  UndeliverableMessage,
} from '../domain/webhooks/delivery-message';
import { DELIVERY_ATTEMPTS, retryDelaySeconds } from '../domain/webhooks/retry-schedule';
import { describeError, logger } from '../observability/logger';
import { fanOut, type FanOutPorts } from './fan-out';
import { inParallel } from '../support/concurrency';

export type DispatcherPorts = FanOutPorts &
  DeliverPorts & { deadLetters: DeadLetterSink; slowLane: WebhookDeliveryQueue };

/** What one record came to, for the local server's list of deliveries and for tests. */
export type RecordOutcome =
  | { messageId: string; kind: 'fanOut'; deliveries: number }
  | {
      messageId: string;
      kind: 'delivery';
      lane: DeliveryLane;
      attempt: number;
      outcome: DeliveryOutcome;
      kept: boolean;
    }
  | { messageId: string; kind: 'deadLettered'; reason: string }
  | { messageId: string; kind: 'error'; reason: string };

/** Records in flight at once: a batch is at most 10, and each POST may take its whole timeout. */
const PARALLEL_RECORDS = 10;

/** SQS delays a message at most 15 minutes; a longer wait is the slow lane's own visibility timeout's. */
const MAX_DELAY_SECONDS = 900;

/**
 * What the lanes do with an outcome; true when SQS should keep the message (a retry in the slow lane). The fast
 * lane never retries in place: a failed attempt, or a subscription already failing, moves the delivery to the slow
 * lane, counting the attempt made. The slow lane's last failed attempt, or a subscription turned off, dead-letters it.
 */
const follow = async (
  record: SQSRecord,
  {
    lane,
    attempt,
    delivery,
    outcome,
  }: { lane: DeliveryLane; attempt: number; delivery: WebhookDelivery; outcome: DeliveryOutcome },
  ports: DispatcherPorts,
): Promise<boolean> => {
  if (outcome.state === 'deferred') await ports.slowLane.send([{ ...delivery, priorAttempts: 0 }]);
  if (outcome.state !== 'failed') return false;
  // the subscription was turned off: the delivery waits in the dead-letter queue for a replay once it is back on
  if (outcome.disabled) return ports.deadLetters.send(record.body, 'subscription disabled').then(() => false);
  const next = retryDelaySeconds(attempt);
  if (next === undefined)
    return ports.deadLetters.send(record.body, `all ${DELIVERY_ATTEMPTS} attempts failed`).then(() => false);
  if (lane === 'slow') return ports.slowLane.retryAfter(record.receiptHandle, next).then(() => true);
  await ports.slowLane.send([{ ...delivery, priorAttempts: attempt }], Math.min(next, MAX_DELAY_SECONDS));
  return false;
};

const handleDelivery = async (record: SQSRecord, ports: DispatcherPorts): Promise<RecordOutcome> => {
  const delivery = deliveryOfMessage(record.body);
  const lane: DeliveryLane = ports.slowLane.carries(record) ? 'slow' : 'fast';
  const receives = Number(record.attributes?.ApproximateReceiveCount ?? '1');
  // a replay into the fast lane starts the schedule again; the slow lane goes on from the attempts before it
  const attempt = lane === 'slow' ? (delivery.priorAttempts ?? 0) + receives : receives;
  const outcome = await deliver(delivery, lane, ports);
  const kept = await follow(record, { lane, attempt, delivery, outcome }, ports);
  return { messageId: record.messageId, kind: 'delivery', lane, attempt, outcome, kept };
};

const handleRecord = async (record: SQSRecord, ports: DispatcherPorts): Promise<RecordOutcome> => {
  const { messageId, body } = record;
  try {
    if (isBusMessage(body))
      return { messageId, kind: 'fanOut', deliveries: await fanOut(eventOfBusMessage(body), ports) };
    return await handleDelivery(record, ports);
  } catch (error) {
    if (!(error instanceof UndeliverableMessage)) {
      const subscriptionId = /"subscriptionId":"([^"]*)"/.exec(body)?.[1];
      logger.error('a webhook message failed; SQS will hand it over again', {
        messageId,
        ...(subscriptionId !== undefined ? { subscriptionId } : {}),
        ...describeError(error),
      });
      return { messageId, kind: 'error', reason: String(error) };
    }
    await ports.deadLetters.send(body, error.message);
    return { messageId, kind: 'deadLettered', reason: error.message };
  }
};

/** Whether SQS should keep the message: a failed attempt that has a next one, or a failure of our own (retried). */
const kept = (outcome: RecordOutcome): boolean =>
  outcome.kind === 'error' || (outcome.kind === 'delivery' && outcome.kept);

/**
 * One batch of any of the three queues: an event off the bus is fanned out to the fast lane; a delivery is
 * attempted in its lane. A message no retry can mend goes to the dead-letter queue at once.
 */
export const dispatchBatch = async (
  records: readonly SQSRecord[],
  ports: DispatcherPorts,
): Promise<{ response: SQSBatchResponse; outcomes: RecordOutcome[] }> => {
  const outcomes = await inParallel(records, PARALLEL_RECORDS, (record) => handleRecord(record, ports));
  return {
    response: { batchItemFailures: outcomes.filter(kept).map(({ messageId }) => ({ itemIdentifier: messageId })) },
    outcomes,
  };
};
