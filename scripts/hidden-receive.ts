import { ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';

/** How long a received dead letter stays hidden from other readers while a run handles it. */
const HIDDEN_SECONDS = 300;

/**
 * The queue's messages, ten at a time, each hidden from other readers while the caller handles it, until the queue
 * answers nothing this run has not seen: a message left in the queue (not deleted) is not handed out twice.
 */
export async function* freshMessages(
  client: SQSClient,
  queueUrl: string,
  { withAttributes = false }: { withAttributes?: boolean } = {},
): AsyncGenerator<Message[]> {
  const seen = new Set<string>();
  for (;;) {
    const answer = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        VisibilityTimeout: HIDDEN_SECONDS,
        ...(withAttributes ? { MessageAttributeNames: ['All'] } : {}),
      }),
    );
    const fresh = (answer.Messages ?? []).filter((message) => !seen.has(message.MessageId ?? ''));
    if (fresh.length === 0) return;
    fresh.forEach((message) => seen.add(message.MessageId ?? ''));
    yield fresh;
  }
}
