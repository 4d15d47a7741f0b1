import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { WebhookDelivery, WebhookDeliveryQueue } from '../../ports/webhook-deliveries';
import { deliveryMessageBody } from '../../domain/webhooks/delivery-message';

const ENTRIES_PER_CALL = 10;

/**
 * A webhook deliveries queue (standard): one message per delivery; a failed attempt hides its message a while.
 * Each message's group is its subscription: SQS's fair queues then keep a subscription with a backlog from
 * lengthening the wait of the others.
 */
export class SqsWebhookDeliveries implements WebhookDeliveryQueue {
  private readonly arnSuffix: string;

  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {
    this.arnSuffix = `:${queueUrl.split('/').at(-1)}`;
  }

  async send(deliveries: readonly WebhookDelivery[], delaySeconds = 0): Promise<void> {
    for (let start = 0; start < deliveries.length; start += ENTRIES_PER_CALL) {
      const result = await this.client.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: deliveries.slice(start, start + ENTRIES_PER_CALL).map((delivery, index) => ({
            Id: String(index),
            MessageBody: deliveryMessageBody(delivery),
            MessageGroupId: delivery.subscriptionId,
            ...(delaySeconds > 0 ? { DelaySeconds: delaySeconds } : {}),
          })),
        }),
      );
      // the message that sent these is retried whole: a subscription may then hear of it twice, with one webhook-id
      if (result.Failed?.length) throw new Error(`SQS refused ${result.Failed.length} webhook deliveries`);
    }
  }

  async retryAfter(receiptHandle: string, seconds: number): Promise<void> {
    await this.client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: this.queueUrl,
        ReceiptHandle: receiptHandle,
        VisibilityTimeout: seconds,
      }),
    );
  }

  carries(record: { eventSourceARN?: string }): boolean {
    return record.eventSourceARN?.endsWith(this.arnSuffix) === true;
  }
}
