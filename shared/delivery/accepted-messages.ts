import { isPastRedeliveryHorizon, isSequenceNumber, sequenceText } from '../domain/delivery/counter-plan';
import { parseDeliveryMessage, type DeliveryEvent } from '../domain/delivery/delivery-event';
import { describeError, logger } from '../observability/logger';
import type { DeliveryMessage, RecorderPorts, RecordingSummary } from './recorder-types';

export type ParsedMessage = Required<Pick<DeliveryMessage, 'group' | 'sequence'>> &
  Pick<DeliveryMessage, 'replayTo'> & {
    messageId: string;
    body: string;
    events: DeliveryEvent[];
    sentAt: Date;
    redelivered?: boolean;
  };

const PAST_HORIZON =
  'sent more than 14 days ago (past the redelivery horizon): its group markers may have been pruned, so it is not ' +
  'counted; see docs/exactly-once.md to reconcile it by hand';

/** Parses a batch: malformed messages and messages without their FIFO place go to the dead-letter queue at once. */
const parseBatch = async (ports: RecorderPorts, messages: readonly DeliveryMessage[], now: Date) => {
  const valid: ParsedMessage[] = [];
  const deadLettered: RecordingSummary['deadLettered'] = [];
  const failed: string[] = [];
  for (const message of messages) {
    const parsed = parseDeliveryMessage(message.body, message.sentAt ?? now.getTime());
    const reason = !parsed.ok
      ? parsed.reason
      : message.group === undefined || message.sequence === undefined
        ? 'no MessageGroupId or SequenceNumber: delivery events must come through the FIFO queue'
        : !isSequenceNumber(message.sequence)
          ? 'SequenceNumber is not a decimal number of at most 40 digits, as SQS FIFO gives'
          : message.replayTo === undefined &&
              message.sentAt !== undefined &&
              isPastRedeliveryHorizon(new Date(message.sentAt), now)
            ? PAST_HORIZON
            : undefined;
    if (parsed.ok && reason === undefined) {
      valid.push({
        messageId: message.messageId,
        body: message.body,
        events: parsed.events,
        group: message.group!,
        sequence: sequenceText(message.sequence!),
        sentAt: message.sentAt !== undefined ? new Date(message.sentAt) : now,
        ...(message.replayTo ? { replayTo: message.replayTo } : {}),
        ...(message.receiveCount !== undefined && message.receiveCount > 1 ? { redelivered: true } : {}),
      });
      continue;
    }
    logger.warn('delivery message sent to the dead-letter queue', { messageId: message.messageId, reason });
    try {
      await ports.deadLetters.send(message.body, reason!);
      deadLettered.push({ messageId: message.messageId, reason: reason! });
    } catch (error) {
      logger.error('dead-lettering failed', { messageId: message.messageId, ...describeError(error) });
      failed.push(message.messageId);
    }
  }
  return { valid, deadLettered, failed };
};

/** Each message id's first message, in order; a look-up per message, as `/_local/delivery` takes batches of any size. */
const firstOfEachId = (messages: readonly ParsedMessage[]): ParsedMessage[] => {
  const seen = new Set<string>();
  return messages.filter((message) => {
    if (seen.has(message.messageId)) return false;
    seen.add(message.messageId);
    return true;
  });
};

/** The batch's valid messages, each once (a message twice in one batch is one message), and the summary so far. */
export const acceptedMessages = async (ports: RecorderPorts, messages: readonly DeliveryMessage[], now: Date) => {
  const parsedBatch = await parseBatch(ports, messages, now);
  const valid = firstOfEachId(parsedBatch.valid);
  const summary: RecordingSummary = {
    messages: messages.length,
    recordedEvents: 0,
    unknownEntityEvents: 0,
    futureDatedEvents: 0,
    deadLettered: parsedBatch.deadLettered,
    duplicateMessages: parsedBatch.valid.length - valid.length,
    counterWrites: 0,
    nearCapWrites: 0,
  };
  return { valid, failed: parsedBatch.failed, summary };
};
