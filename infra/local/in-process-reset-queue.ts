import { randomUUID } from 'node:crypto';
import type { ResetRequest } from '../../shared/domain/resets/reset-request';
import type { ReceivedReset, ResetQueue, ResetSource } from '../../shared/resets/reset-queue';

/**
 * Locally, queued resets wait in memory until the flush. Like SQS, a received reset stays hidden until it is
 * acknowledged, and one not acknowledged comes back on `release()` (the end of a flush).
 */
export class InProcessResetQueue implements ResetQueue, ResetSource {
  private waiting: { receipt: string; request: ResetRequest }[] = [];
  private inFlight = new Map<string, ResetRequest>();

  async enqueue(request: ResetRequest): Promise<void> {
    this.waiting.push({ receipt: randomUUID(), request: structuredClone(request) });
  }

  async receive(max: number): Promise<ReceivedReset[]> {
    const taken = this.waiting.splice(0, max);
    for (const { receipt, request } of taken) this.inFlight.set(receipt, request);
    return taken.map(({ receipt, request }) => ({ receipt, request: structuredClone(request) }));
  }

  async acknowledge(receipts: readonly string[]): Promise<void> {
    for (const receipt of receipts) this.inFlight.delete(receipt);
  }

  /** Returns what was received but not acknowledged to the queue. */
  release(): void {
    for (const [receipt, request] of this.inFlight) this.waiting.push({ receipt, request });
    this.inFlight.clear();
  }

  get size(): number {
    return this.waiting.length + this.inFlight.size;
  }
}
