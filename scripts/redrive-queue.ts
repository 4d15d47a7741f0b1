import { DeleteMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { freshMessages } from './hidden-receive';
import { deadLetterOfSqsMessage } from '../shared/adapters/sqs/sqs-dead-letter-reader';
import type { DeadLetter, RedriveOutcome } from '../shared/delivery/redrive';

export interface RedriveRun {
  replayed: number;
  deadLetteredAgain: number;
  failed: number;
  /** Dead letters without details (malformed messages, messages past the redelivery horizon): left in the queue. */
  notReplayable: number;
  /** Dry run: what would be replayed, by message id, with the items it would go to. */
  wouldReplay: { messageId: string; targets: string[] }[];
}

/**
 * Reads the delivery DLQ until it answers nothing new and replays each dead letter the store refused (`replay`:
 * `redriveDeadLetters` with a sink that sends a replay refused again back to the same queue, with its details). A dead letter is
 * deleted only once its replay is done or it is dead-lettered anew: one not taken everywhere is left to reappear
 * and is replayed again by a later run, counted once.
 */
export const redriveQueue = async (
  client: SQSClient,
  queueUrl: string,
  replay: (letters: DeadLetter[]) => Promise<RedriveOutcome>,
  dryRun = false,
): Promise<RedriveRun> => {
  const run: RedriveRun = { replayed: 0, deadLetteredAgain: 0, failed: 0, notReplayable: 0, wouldReplay: [] };
  for await (const fresh of freshMessages(client, queueUrl, { withAttributes: true })) {
    const letters = new Map<string, { letter: DeadLetter; receipts: string[] }>();
    for (const message of fresh) {
      const letter = deadLetterOfSqsMessage(message);
      if (!letter) run.notReplayable++;
      else if (dryRun) run.wouldReplay.push({ messageId: letter.details.messageId, targets: letter.details.targets });
      else {
        const entry = letters.get(letter.details.messageId) ?? { letter, receipts: [] };
        entry.receipts.push(message.ReceiptHandle!);
        letters.set(letter.details.messageId, entry);
      }
    }
    if (letters.size === 0) continue;
    const outcome = await replay([...letters.values()].map(({ letter }) => letter));
    run.replayed += outcome.replayed.length;
    run.deadLetteredAgain += outcome.deadLettered.length;
    run.failed += outcome.failed.length;
    const failed = new Set(outcome.failed);
    for (const [messageId, { receipts }] of letters)
      if (!failed.has(messageId))
        for (const receipt of receipts)
          await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: receipt }));
  }
  return run;
};
