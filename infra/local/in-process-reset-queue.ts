import type { ResetQueue, ResetRequest } from '../../shared/limits/reset-queue';

/** Locally, queued resets wait in memory until the flush drains them. */
export class InProcessResetQueue implements ResetQueue {
  private pending: ResetRequest[] = [];

  async enqueue(request: ResetRequest): Promise<void> {
    this.pending.push(structuredClone(request));
  }

  /** Takes every waiting reset, oldest first. */
  drain(): ResetRequest[] {
    const drained = this.pending;
    this.pending = [];
    return drained;
  }

  get size(): number {
    return this.pending.length;
  }
}
