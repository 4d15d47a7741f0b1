import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  SendMessageBatchCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { freshMessages } from './hidden-receive';

export interface ReplayRun {
  replayed: number;
  /** Sent back to the deliveries queue but still in the dead-letter queue (deleting failed): replayed twice at worst. */
  notDeleted: number;
  failed: number;
}

/** Makes messages a dry run read visible again at once, rather than after the run's hiding time. */
const release = async (client: SQSClient, queueUrl: string, messages: Message[]): Promise<void> => {
  for (let start = 0; start < messages.length; start += 10)
    await client.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: queueUrl,
        Entries: messages.slice(start, start + 10).map((message, index) => ({
          Id: String(index),
          ReceiptHandle: message.ReceiptHandle!,
          VisibilityTimeout: 0,
        })),
      }),
    );
};

/**
 * Moves every dead-lettered webhook delivery back to the deliveries queue, body unchanged (so each keeps its
 * webhook-id), until the dead-letter queue answers nothing new. A message leaves the dead-letter queue only once the
 * deliveries queue has it; one SQS refused stays there, for the next run. A dry run only counts, and then makes
 * what it read visible again, so that a replay right after it finds every message.
 */
export const replayWebhookDeadLetters = async (
  client: SQSClient,
  { from, to, dryRun = false }: { from: string; to: string; dryRun?: boolean },
): Promise<ReplayRun> => {
  const run: ReplayRun = { replayed: 0, notDeleted: 0, failed: 0 };
  const counted: Message[] = [];
  for await (const fresh of freshMessages(client, from)) {
    if (dryRun) {
      run.replayed += fresh.length;
      counted.push(...fresh);
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
  await release(client, from, counted);
  return run;
};
