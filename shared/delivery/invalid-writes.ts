import { describeError, logger } from '../observability/logger';
import type { DeadLetterSink } from '../ports/dead-letters';

/** A counter item's write the store refused as invalid: what it said, and the request. */
export interface InvalidWrite {
  reason: string;
  request: unknown;
}

interface RecordedMessage {
  messageId: string;
  body: string;
  group: string;
  /** Fixed-width sequence text, as the counter items record it. */
  sequence: string;
  sentAt: Date;
}

/**
 * A write the store refuses as invalid is a defect, and sending it again cannot help: the messages whose items
 * either took them or refused them as invalid are dead-lettered with the reason, the refused requests and the
 * items that did not take them, so that their group moves on and a replay (`npm run redrive`) can count them
 * there once fixed. A message some item failed to take for another reason (throttling) is left to be delivered
 * again, and is dead-lettered on a later delivery. Answers the messages dead-lettered.
 */
export const deadLetterInvalidWrites = async (
  deadLetters: DeadLetterSink,
  { messages, targetsOf }: { messages: readonly RecordedMessage[]; targetsOf: ReadonlyMap<string, readonly string[]> },
  { written, invalid }: { written: (target: string) => boolean; invalid: ReadonlyMap<string, InvalidWrite> },
): Promise<{ messageId: string; reason: string }[]> => {
  const deadLettered: { messageId: string; reason: string }[] = [];
  for (const message of messages) {
    const touched = targetsOf.get(message.messageId) ?? [];
    const refused = touched.filter((target) => invalid.has(target));
    if (refused.length === 0 || !touched.every((target) => written(target) || invalid.has(target))) continue;
    const writes = refused.map((target) => invalid.get(target)!);
    const reason = `the store refused the counter write as invalid (a defect): ${writes[0]!.reason}`;
    try {
      await deadLetters.send(message.body, reason, {
        messageId: message.messageId,
        group: message.group,
        sequence: message.sequence,
        sentAt: message.sentAt.getTime(),
        targets: refused,
        requests: writes.map((write) => write.request),
      });
      deadLettered.push({ messageId: message.messageId, reason });
    } catch (error) {
      logger.error('dead-lettering failed', { messageId: message.messageId, ...describeError(error) });
    }
  }
  return deadLettered;
};
