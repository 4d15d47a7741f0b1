import type { DeadLetterDetails, DeadLetterSink } from '../ports/dead-letters';
import { recordDelivery, type DeliveryMessage, type RecorderOptions, type RecorderPorts } from './recorder';

/** A dead-lettered delivery message the recorder can replay: its body and the details it was dead-lettered with. */
export interface DeadLetter {
  body: string;
  details: DeadLetterDetails;
}

/** The message group of a dead letter's replay: one of its own, the same on every run. */
export const redriveGroup = (messageId: string): string => `redrive:${messageId}`;

/**
 * The message that replays a dead letter: its events, at its original receive time, only to the counter items that
 * did not take it, under a message group of its own. Not the original group: items whose marker later messages
 * moved past would skip it. The fresh group's marker makes a second replay (a rerun, a run that failed midway, a
 * replay dead-lettered again) skip every item that took the first. Pure.
 */
export const replayOfDeadLetter = ({ body, details }: DeadLetter): DeliveryMessage => ({
  messageId: details.messageId,
  body,
  group: redriveGroup(details.messageId),
  sequence: '1',
  sentAt: details.sentAt,
  replayTo: details.targets,
});

export interface RedriveOutcome {
  /** Counted on every item that had not taken them (or found already counted there): done. */
  replayed: string[];
  /** Refused again: dead-lettered anew, with their details, to the ports' sink. */
  deadLettered: { messageId: string; reason: string }[];
  /** Not every item took them (throttling, an outage): left to be replayed again. */
  failed: string[];
}

/** Replays dead letters through the recorder, at most once each per item, and tells what became of each. */
export const redriveDeadLetters = async (
  ports: RecorderPorts & { deadLetters: DeadLetterSink },
  letters: readonly DeadLetter[],
  options: RecorderOptions = {},
): Promise<RedriveOutcome> => {
  if (letters.length === 0) return { replayed: [], deadLettered: [], failed: [] };
  const { failedMessageIds, summary } = await recordDelivery(ports, letters.map(replayOfDeadLetter), options);
  const failed = new Set(failedMessageIds);
  const deadLettered = new Set(summary.deadLettered.map(({ messageId }) => messageId));
  return {
    replayed: letters
      .map(({ details }) => details.messageId)
      .filter((messageId) => !failed.has(messageId) && !deadLettered.has(messageId)),
    deadLettered: summary.deadLettered,
    failed: [...failed],
  };
};
