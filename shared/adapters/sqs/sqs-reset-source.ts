import { DeleteMessageBatchCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { parseResetRequest } from '../../domain/resets/reset-request';
import type { ReceivedReset, ResetSource } from '../../ports/reset-queue';

/** How long a receive waits for a message before answering that there is none. */
export const LONG_POLL_SECONDS = 5;

/** Drains `queued-resets`: what is not acknowledged reappears after the visibility timeout, then reaches the DLQ. */
export class SqsResetSource implements ResetSource {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async receive(max: number): Promise<ReceivedReset[]> {
    const result = await this.client.send(
      new ReceiveMessageCommand({
        QueueUrl: this.queueUrl,
        MaxNumberOfMessages: Math.min(max, 10),
        // long polling: an empty answer means the queue is empty, not that one server had nothing
        WaitTimeSeconds: LONG_POLL_SECONDS,
      }),
    );
    return (result.Messages ?? []).map((message) => ({
      receipt: message.ReceiptHandle!,
      request: parseResetRequest(message.Body ?? ''),
    }));
  }

  async acknowledge(receipts: readonly string[]): Promise<void> {
    for (let start = 0; start < receipts.length; start += 10) {
      const chunk = receipts.slice(start, start + 10);
      const result = await this.client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: chunk.map((ReceiptHandle, index) => ({ Id: String(index), ReceiptHandle })),
        }),
      );
      if (result.Failed?.length)
        throw new Error(`SQS kept ${result.Failed.length} applied resets; they will be applied again, harmlessly`);
    }
  }
}
