import type { Clock } from '../../shared/ports/clock';

/** The local server's clock: real time by default; `POST /_local/clock` fixes or moves it. */
export class ControllableClock implements Clock {
  private fixedAt: number | undefined;
  private offsetMs = 0;

  now(): Date {
    return new Date(this.fixedAt ?? Date.now() + this.offsetMs);
  }

  /** Fixes the clock at `now`, or returns to real time with null. */
  set(now: Date | null): void {
    this.fixedAt = now ? now.getTime() : undefined;
    this.offsetMs = 0;
  }

  advance(seconds: number): void {
    if (this.fixedAt !== undefined) this.fixedAt += seconds * 1000;
    else this.offsetMs += seconds * 1000;
  }
}
