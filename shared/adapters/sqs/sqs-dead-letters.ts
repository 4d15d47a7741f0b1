import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { createHash } from 'node:crypto';
import type { DeadLetterSink } from '../../ports/dead-letters';

/** The delivery queue's dead-letter queue; a FIFO one (`.fifo`) needs a message group and a deduplication id. */
export class SqsDeadLetters implements DeadLetterSink {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(body: string, reason: string): Promise<void> {
    const fifo = this.queueUrl.endsWith('.fifo');
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: body,
        MessageAttributes: { reason: { DataType: 'String', StringValue: reason.slice(0, 1000) } },
        ...(fifo
          ? {
              MessageGroupId: 'dead-letters',
              // the same message dead-lettered again within five minutes is kept once
              MessageDeduplicationId: createHash('sha256').update(body).digest('hex'),
            }
          : {}),
      }),
    );
  }
}
