import type { SQSBatchResponse, SQSRecord } from 'aws-lambda';
import type { DeadLetterSink } from '../ports/dead-letters';
import { deliver, type DeliverPorts, type DeliveryOutcome } from './deliver';
import {
  deliveryOfMessage,
  eventOfBusMessage,
  isBusMessage,
  UndeliverableMessage,
} from '../domain/webhooks/delivery-message';
import { fanOut, type FanOutPorts } from './fan-out';
import { inParallel } from '../support/concurrency';

export type DispatcherPorts = FanOutPorts & DeliverPorts & { deadLetters: DeadLetterSink };

/** What one record came to, for the local server's list of deliveries and for tests. */
export type RecordOutcome =
  | { messageId: string; kind: 'fanOut'; deliveries: number }
  | { messageId: string; kind: 'delivery'; outcome: DeliveryOutcome }
  | { messageId: string; kind: 'deadLettered'; reason: string }
  | { messageId: string; kind: 'error'; reason: string };

/** Records in flight at once: a batch is at most 10, and each POST may take its whole timeout. */
const PARALLEL_RECORDS = 10;

const handleRecord = async (record: SQSRecord, ports: DispatcherPorts): Promise<RecordOutcome> => {
  const { messageId, body } = record;
  try {
    if (isBusMessage(body))
      return { messageId, kind: 'fanOut', deliveries: await fanOut(eventOfBusMessage(body), ports) };
    const attempt = Number(record.attributes?.ApproximateReceiveCount ?? '1');
    const outcome = await deliver(deliveryOfMessage(body), attempt, ports);
    if (outcome.state === 'failed' && outcome.retryInSeconds !== undefined)
      await ports.deliveries.retryAfter(record.receiptHandle, outcome.retryInSeconds);
    // the subscription was turned off: the delivery waits in the dead-letter queue for a replay once it is back on
    if (outcome.state === 'failed' && outcome.disabled) await ports.deadLetters.send(body, 'subscription disabled');
    return { messageId, kind: 'delivery', outcome };
  } catch (error) {
    if (!(error instanceof UndeliverableMessage)) return { messageId, kind: 'error', reason: String(error) };
    await ports.deadLetters.send(body, error.message);
    return { messageId, kind: 'deadLettered', reason: error.message };
  }
};

/** Whether SQS should keep the message: a failed attempt that has a next one, or a failure of our own (retried). */
const kept = (outcome: RecordOutcome): boolean =>
  outcome.kind === 'error' ||
  (outcome.kind === 'delivery' && outcome.outcome.state === 'failed' && !outcome.outcome.disabled);

/**
 * One batch of either queue: an event off the bus is fanned out to the deliveries queue; a delivery is attempted.
 * A failed attempt stays in its queue, out of sight until the schedule's next step; after the last one the
 * queue's redrive policy moves it to the dead-letter queue. A message no retry can mend goes there at once.
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
