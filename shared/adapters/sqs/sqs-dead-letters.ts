import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { createHash } from 'node:crypto';
import type { DeadLetterDetails, DeadLetterSink } from '../../ports/dead-letters';

/** Room left for the details in a message of at most 256 KB: the refused requests go first when it is short. */
const DETAILS_BYTES = 200_000;
const detailsText = (details: DeadLetterDetails): string => {
  const text = JSON.stringify(details);
  return Buffer.byteLength(text) <= DETAILS_BYTES ? text : JSON.stringify({ ...details, requests: [] });
};

/** The delivery queue's dead-letter queue; a FIFO one (`.fifo`) needs a message group and a deduplication id. */
export class SqsDeadLetters implements DeadLetterSink {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(body: string, reason: string, details?: DeadLetterDetails): Promise<void> {
    const fifo = this.queueUrl.endsWith('.fifo');
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: body,
        MessageAttributes: {
          reason: { DataType: 'String', StringValue: reason.slice(0, 1000) },
          // what a replay needs (`npm run redrive`), and the refused requests for the defect's diagnosis
          ...(details ? { details: { DataType: 'String', StringValue: detailsText(details) } } : {}),
        },
        ...(fifo
          ? {
              MessageGroupId: 'dead-letters',
              // the same message dead-lettered again within five minutes is kept once
              MessageDeduplicationId: createHash('sha256')
                .update(`${details?.messageId ?? ''}\n${body}`)
                .digest('hex'),
            }
          : {}),
      }),
    );
  }
}
