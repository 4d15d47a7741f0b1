import type { SQSEvent } from 'aws-lambda';
import { createRecorder } from '../../functions/delivery-recorder/handler';
import type { LocalService } from '../../infra/local/local-service';
import type { DeliveryStep, GeneratedCase } from '../model/generated-case';

/**
 * Markers a counter item holds itself in the model's recorder: fewer than a case's groups, so that the marker items
 * beside it, the `ov` day of the last beside write and the warm cache's guess are all exercised (deployed: 32).
 */
export const MODEL_INLINE_MARKERS = 1;

/** A message on the simulated FIFO queue: its id, group and sequence stay the same on every redelivery. */
interface QueuedMessage {
  messageId: string;
  group: string;
  sequence: string;
  sentAt: number;
  body: string;
  /** How many batches have handed it out (SQS `ApproximateReceiveCount`). */
  receives: number;
}

export interface TransportLog {
  invocations: number;
  /** Messages handed back once injected faults had stopped: must stay empty. */
  failedWithoutFaults: string[];
}

/** Fault-free batches the queue gets to empty itself after the generated steps: more than it needs. */
const DRAIN_LIMIT = 12;
const DRAIN_BATCH = 10;

/**
 * SQS FIFO and Lambda as the recorder meets them, for one generated case: each group's messages come in order,
 * each batch takes a prefix of some groups' pending messages, a group has one batch in flight (bar a raced
 * duplicate), a message the partial batch response names comes back, and so does every message of a batch whose
 * answer was lost. Write faults are injected through the local server's `WriteFaults`.
 */
export class FifoTransport {
  private readonly pending: QueuedMessage[][];
  private readonly record: ReturnType<typeof createRecorder>;
  readonly log: TransportLog = { invocations: 0, failedWithoutFaults: [] };

  constructor(
    private readonly service: LocalService,
    private readonly caseId: string,
    private readonly generated: GeneratedCase,
  ) {
    this.record = createRecorder(service.dependencies, { inlineMarkers: MODEL_INLINE_MARKERS });
    const groups = Math.max(...generated.messages.map((message) => message.group)) + 1;
    this.pending = Array.from({ length: groups }, () => []);
  }

  /** A group's name: the case id and the group's index, padded with zeros to the case's length for the group. */
  groupName(group: number): string {
    const prefix = `${this.caseId}-g`;
    const length = this.generated.groupNameLengths?.[group] ?? 0;
    return `${prefix}${String(group).padStart(length - prefix.length, '0')}`;
  }

  /** Puts the case's messages from `first` up to `end` on the queue. */
  send(first: number, end: number): void {
    this.generated.messages.slice(first, end).forEach((message, offset) =>
      this.pending[message.group]!.push({
        messageId: `${this.caseId}-m${first + offset}`,
        group: this.groupName(message.group),
        sequence: String(10_000_000 + first + offset),
        sentAt: message.sentAt,
        body: JSON.stringify(message.events),
        receives: 0,
      }),
    );
  }

  /**
   * Runs the generated steps, then delivers what is left without faults until the queue is empty; `before(i)` runs
   * before step i (and before the drain, with i = the number of steps).
   */
  async run(steps: readonly DeliveryStep[], before?: (index: number) => Promise<void>): Promise<void> {
    for (const [index, step] of steps.entries()) {
      await before?.(index);
      await this.deliver(step);
    }
    await before?.(steps.length);
    for (let round = 0; round < DRAIN_LIMIT && this.remaining() > 0; round++)
      await this.deliver({ size: DRAIN_BATCH, firstGroup: round, timedOut: false, raced: false });
  }

  remaining(): number {
    return this.pending.reduce((sum, group) => sum + group.length, 0);
  }

  private batch(size: number, firstGroup: number): QueuedMessage[] {
    const batch: QueuedMessage[] = [];
    for (let offset = 0; offset < this.pending.length; offset++) {
      const group = this.pending[(firstGroup + offset) % this.pending.length]!;
      batch.push(...group.slice(0, size - batch.length));
    }
    return batch;
  }

  private async deliver(step: DeliveryStep): Promise<void> {
    const batch = this.batch(step.size, step.firstGroup);
    if (batch.length === 0) return;
    for (const message of batch) message.receives++;
    const event = {
      Records: batch.map((message) => ({
        messageId: message.messageId,
        body: message.body,
        attributes: {
          MessageGroupId: message.group,
          SequenceNumber: message.sequence,
          SentTimestamp: String(message.sentAt),
          ApproximateFirstReceiveTimestamp: String(message.sentAt),
          ApproximateReceiveCount: String(message.receives),
        },
      })),
    } as unknown as SQSEvent;
    this.service.clock.set(new Date(Math.max(...batch.map((message) => message.sentAt))));
    this.service.faults.set(step.faultAt !== undefined ? [step.faultAt] : []);
    try {
      const answers = await Promise.all((step.raced ? [1, 2] : [1]).map(() => this.record(event)));
      this.log.invocations += answers.length;
      const failed = answers.at(-1)!.response.batchItemFailures.map((failure) => failure.itemIdentifier);
      if (step.faultAt === undefined) this.log.failedWithoutFaults.push(...failed);
      if (!step.timedOut) this.acknowledge(batch, new Set(failed));
    } finally {
      this.service.faults.set([]);
    }
  }

  /** SQS deletes what the answer did not name; a group keeps the rest in order. */
  private acknowledge(batch: readonly QueuedMessage[], failed: ReadonlySet<string>): void {
    const done = new Set(batch.filter((message) => !failed.has(message.messageId)));
    for (const [index, group] of this.pending.entries())
      this.pending[index] = group.filter((message) => !done.has(message));
  }
}
