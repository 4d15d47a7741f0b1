import { messagesToRetry } from '../domain/delivery/batch-outcome';
import { describeError, logger } from '../observability/logger';
import { emitMetrics } from '../observability/metrics';
import { acceptedMessages } from './accepted-messages';
import { planTargets, writeTargets } from './counter-targets';
import { settledMessages } from './settled-messages';
import type { DeliveryMessage, RecorderOptions, RecorderPorts, RecordingResult } from './recorder-types';

export type {
  DeliveryMessage,
  RecorderOptions,
  RecorderPorts,
  RecordingResult,
  RecordingSummary,
} from './recorder-types';

/**
 * The delivery recorder. Every message changes the counters exactly once, whatever the platform does: it is
 * folded into one conditional update per counter item it touches (per shard, for a sharded entity), and each item
 * records, per FIFO message group, the highest sequence it applied, so a message delivered again, a batch retried
 * after a partial failure or regrouped, or a function that timed out after it wrote, is skipped where it already
 * counts. A message is handed back only where some item it touches did not take it (with every later message of
 * its group). Each update also stores the caps it is judged against: the table's stream tells LimitReached from
 * it; the recorder publishes nothing.
 */
export const recordDelivery = async (
  ports: RecorderPorts,
  messages: readonly DeliveryMessage[],
  options: RecorderOptions = {},
): Promise<RecordingResult> => {
  const now = ports.clock.now();
  const { valid, failed, summary } = await acceptedMessages(ports, messages, now);
  if (valid.length === 0) return { failedMessageIds: failed, summary };
  let planned: Awaited<ReturnType<typeof planTargets>>;
  try {
    planned = await planTargets(ports.store, valid, options, summary);
  } catch (error) {
    logger.error('reading for a delivery batch failed; it will be delivered again', describeError(error));
    return { failedMessageIds: [...failed, ...valid.map((message) => message.messageId)], summary };
  }
  const { autoShard, inlineMarkers } = options;
  const written = await writeTargets(ports, planned, { now, autoShard, inlineMarkers, summary });
  const done = await settledMessages(ports, { valid, targetsOf: planned.targetsOf }, written, summary);
  emitMetrics(
    {
      RecordedEvents: summary.recordedEvents,
      UnknownEntityEvents: summary.unknownEntityEvents,
      FutureDatedEvents: summary.futureDatedEvents,
      InvalidCounterWrites: written.invalid.size,
      DeadLetteredMessages: summary.deadLettered.length,
      DuplicateMessages: summary.duplicateMessages,
      CounterWrites: summary.counterWrites,
      NearCapWrites: summary.nearCapWrites,
    },
    now,
  );
  return { failedMessageIds: [...failed, ...messagesToRetry(valid, done)], summary };
};
