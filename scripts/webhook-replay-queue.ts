import { DeleteMessageBatchCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { freshMessages } from './hidden-receive';

export interface ReplayRun {
  replayed: number;
  /** Sent back to the deliveries queue but still in the dead-letter queue (deleting failed): replayed twice at worst. */
  notDeleted: number;
  failed: number;
}

/**
 * Moves every dead-lettered webhook delivery back to the deliveries queue, body unchanged (so each keeps its
 * webhook-id), until the dead-letter queue answers nothing new. A message leaves the dead-letter queue only once the
 * deliveries queue has it; one SQS refused stays there, for the next run. A dry run only counts.
 */
export const replayWebhookDeadLetters = async (
  client: SQSClient,
  { from, to, dryRun = false }: { from: string; to: string; dryRun?: boolean },
): Promise<ReplayRun> => {
  const run: ReplayRun = { replayed: 0, notDeleted: 0, failed: 0 };
  for await (const fresh of freshMessages(client, from)) {
    if (dryRun) {
      run.replayed += fresh.length;
      continue;
    }
    const sent = await client.send(
      new SendMessageBatchCommand({
        QueueUrl: to,
        Entries: fresh.map((message, index) => ({ Id: String(index), MessageBody: message.Body! })),
      }),
    );
    const moved = (sent.Successful ?? []).map((entry) => fresh[Number(entry.Id)]!);
    run.failed += sent.Failed?.length ?? 0;
    if (moved.length === 0) continue;
    const deleted = await client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: from,
        Entries: moved.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle! })),
      }),
    );
    run.replayed += moved.length;
    run.notDeleted += deleted.Failed?.length ?? 0;
  }
  return run;
};
