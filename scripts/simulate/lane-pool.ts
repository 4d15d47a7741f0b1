import type { TriggerSizing } from '../../infra/cdk/push-path';
import type { EventHeap } from './event-heap';

/** A simulated moment's work: what happens at `time`. */
export type Step = (time: number) => void;

/**
 * An SQS queue and the Lambda containers its trigger runs (`TriggerSizing`): a free container takes up to a batch of
 * the messages in sight (gathered for the batching window, unless a whole batch is in sight first), handles them side
 * by side, and is free again when the slowest is done. `handle` says how long a message takes and schedules what
 * follows it.
 */
export class LanePool<Message> {
  private readonly waiting: Message[] = [];
  private free: number;
  private gathering = false;
  /** When Lambda's pollers hand an idle container a message, after it comes in sight. */
  private readonly pollDelay: () => number;

  constructor(
    private readonly heap: EventHeap<Step>,
    private readonly options: TriggerSizing & {
      random: () => number;
      handle: (message: Message, start: number) => number;
    },
  ) {
    this.free = options.maxConcurrency;
    this.pollDelay = () => 0.05 * options.random();
  }

  /** A message in sight of the pool at `visibleAt`. */
  send(message: Message, visibleAt: number): void {
    this.heap.push(visibleAt, (time) => {
      this.waiting.push(message);
      if (this.free === 0) return;
      const { batchSize, batchingWindowSeconds } = this.options;
      if (this.waiting.length >= batchSize || batchingWindowSeconds === 0)
        this.heap.push(time + this.pollDelay(), (start) => this.startBatches(start));
      else if (!this.gathering) {
        this.gathering = true;
        this.heap.push(time + batchingWindowSeconds, (start) => {
          this.gathering = false;
          this.startBatches(start);
        });
      }
    });
  }

  private startBatches(start: number): void {
    while (this.free > 0 && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.batchSize);
      this.free--;
      const seconds = Math.max(...batch.map((message) => this.options.handle(message, start)));
      this.heap.push(start + seconds, (done) => {
        this.free++;
        this.startBatches(done);
      });
    }
  }
}
