import { randomUUID } from 'node:crypto';
import type { ResetRequest } from '../../shared/domain/resets/reset-request';
import type { ReceivedReset, ResetQueue, ResetSource } from '../../shared/ports/reset-queue';

/**
 * Locally, queued resets wait in memory until the flush. Like SQS, a received reset stays hidden until it is
 * acknowledged; each flush receives through a session of its own, and what one session received but did not
 * acknowledge comes back when that session ends, never when another one does.
 */
export class InProcessResetQueue implements ResetQueue {
  private waiting: { receipt: string; request: ResetRequest }[] = [];
  private inFlight = 0;

  async enqueue(request: ResetRequest): Promise<void> {
    this.waiting.push({ receipt: randomUUID(), request: structuredClone(request) });
  }

  /** A consumer's view of the queue, as one flush invocation has of SQS. */
  session(): ResetSource & { end(): void } {
    const received = new Map<string, ResetRequest>();
    return {
      receive: async (max) => {
        const taken = this.waiting.splice(0, max);
        for (const { receipt, request } of taken) received.set(receipt, request);
        this.inFlight += taken.length;
        return taken.map(({ receipt, request }): ReceivedReset => ({ receipt, request: structuredClone(request) }));
      },
      acknowledge: async (receipts) => {
        for (const receipt of receipts) if (received.delete(receipt)) this.inFlight--;
      },
      end: () => {
        for (const [receipt, request] of received) this.waiting.push({ receipt, request });
        this.inFlight -= received.size;
        received.clear();
      },
    };
  }

  get size(): number {
    return this.waiting.length + this.inFlight;
  }
}
