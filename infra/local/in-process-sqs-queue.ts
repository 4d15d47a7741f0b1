import { randomUUID } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';
import type { Clock } from '../../shared/ports/clock';

interface QueuedMessage {
  messageId: string;
  body: string;
  receiveCount: number;
  /** When it may be received again (ms, by the local clock). */
  visibleAt: number;
  receiptHandle: string;
}

/**
 * A standard SQS queue in memory, timed by the local clock: a received message is hidden for the visibility
 * timeout (or what `hide` sets), and one received `maxReceiveCount` times and still kept goes to the dead letters.
 */
export class InProcessSqsQueue {
  private readonly messages: QueuedMessage[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly settings: { name: string; visibilityTimeoutSeconds: number; maxReceiveCount: number },
  ) {}

  /** Lambda's name for the queue in each record (`eventSourceARN`), as an SQS trigger hands it over. */
  get arn(): string {
    return `arn:aws:sqs:local:000000000000:${this.settings.name}`;
  }

  send(body: string, delaySeconds = 0): string {
    const messageId = randomUUID();
    const visibleAt = this.clock.now().getTime() + delaySeconds * 1000;
    this.messages.push({ messageId, body, receiveCount: 0, visibleAt, receiptHandle: '' });
    return messageId;
  }

  /** The next message visible now, received (its count raised, hidden for the visibility timeout), as Lambda gets it. */
  receive(): SQSRecord | undefined {
    const now = this.clock.now().getTime();
    const message = this.messages.find((candidate) => candidate.visibleAt <= now);
    if (!message) return undefined;
    message.receiveCount++;
    message.receiptHandle = randomUUID();
    message.visibleAt = now + this.settings.visibilityTimeoutSeconds * 1000;
    return {
      messageId: message.messageId,
      receiptHandle: message.receiptHandle,
      body: message.body,
      eventSourceARN: this.arn,
      attributes: { ApproximateReceiveCount: String(message.receiveCount) },
    } as unknown as SQSRecord;
  }

  /** ChangeMessageVisibility: an unknown or stale receipt handle is refused, as SQS refuses it. */
  hide(receiptHandle: string, seconds: number): void {
    const message = this.messages.find((candidate) => candidate.receiptHandle === receiptHandle);
    if (!message) throw new Error('ReceiptHandleIsInvalid');
    message.visibleAt = this.clock.now().getTime() + seconds * 1000;
  }

  /**
   * After the consumer's answer: a message handled is deleted; one kept stays hidden, or, at its last receive, is
   * taken out and returned for the dead-letter queue (the redrive policy).
   */
  settle(messageId: string, kept: boolean): QueuedMessage | undefined {
    const index = this.messages.findIndex((candidate) => candidate.messageId === messageId);
    if (index < 0) return undefined;
    const message = this.messages[index]!;
    if (kept && message.receiveCount < this.settings.maxReceiveCount) return undefined;
    this.messages.splice(index, 1);
    return kept ? message : undefined;
  }

  /** When a message comes back into sight (ms), if it is still in the queue. */
  visibleAtOf(messageId: string): number | undefined {
    return this.messages.find((candidate) => candidate.messageId === messageId)?.visibleAt;
  }

  /** When the next hidden message comes back into sight, if any. */
  nextVisibleAt(): number | undefined {
    return this.messages.length === 0 ? undefined : Math.min(...this.messages.map((message) => message.visibleAt));
  }
}
