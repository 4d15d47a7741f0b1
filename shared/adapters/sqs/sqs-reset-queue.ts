import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ResetRequest } from '../../domain/resets/reset-request';
import type { ResetQueue } from '../../ports/reset-queue';

export class SqsResetQueue implements ResetQueue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(request: ResetRequest): Promise<void> {
    await this.client.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(request) }));
  }
}
