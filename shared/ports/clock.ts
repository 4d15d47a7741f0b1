/** Every reading of the time goes through a Clock, so tests and the local server can fix or move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
