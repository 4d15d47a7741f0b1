/**
 * The numbers of a usage plan, in one place: the CDK stack's plans and the quota the family handlers keep for
 * partners whose signature API Gateway cannot see (hash parameters in a form body).
 */
export interface UsagePlanLimits {
  /** Steady requests a second. */
  rateLimit: number;
  /** Requests at once above the steady rate. */
  burstLimit: number;
  /** Requests a UTC day. */
  quotaPerDay: number;
}

/** The default plan: hash and session callers without a metering key of their own. */
export const DEFAULT_PLAN: UsagePlanLimits = { rateLimit: 50, burstLimit: 100, quotaPerDay: 100_000 };

/** The anonymous plan: requests that show API Gateway no credential. */
export const ANONYMOUS_PLAN: UsagePlanLimits = { rateLimit: 5, burstLimit: 10, quotaPerDay: 10_000 };

/** A keyed partner's plan (the keys `npm run api-key` makes): five times the default's rate, ten times its quota. */
export const partnerPlan = (base: UsagePlanLimits = DEFAULT_PLAN): UsagePlanLimits => ({
  rateLimit: base.rateLimit * 5,
  burstLimit: base.burstLimit * 5,
  quotaPerDay: base.quotaPerDay * 10,
});

/**
 * Where a request falls when a plan is kept with counters: a fixed window of `burstLimit / rateLimit` seconds
 * (at least one) that takes `rateLimit` requests a second, so a burst of `burstLimit` fits and the steady rate
 * holds, and a UTC day that takes `quotaPerDay`.
 */
export interface MeterWindow {
  /** `yyyy-mm-dd`, UTC. */
  day: string;
  /** The window's number since the epoch. */
  window: number;
  windowLimit: number;
  dayLimit: number;
  secondsToNextWindow: number;
  secondsToNextDay: number;
}

const DAY_SECONDS = 86_400;

export const meterWindow = (plan: UsagePlanLimits, now: Date): MeterWindow => {
  const windowSeconds = Math.max(1, Math.round(plan.burstLimit / plan.rateLimit));
  const epochSeconds = Math.floor(now.getTime() / 1000);
  const window = Math.floor(epochSeconds / windowSeconds);
  return {
    day: now.toISOString().slice(0, 10),
    window,
    windowLimit: plan.rateLimit * windowSeconds,
    dayLimit: plan.quotaPerDay,
    secondsToNextWindow: (window + 1) * windowSeconds - epochSeconds,
    secondsToNextDay: DAY_SECONDS - (epochSeconds % DAY_SECONDS),
  };
};

/** The counters of one user's day, as stored: the current window's number and count, the day's count. */
export interface MeterCounters {
  win?: number;
  winCount?: number;
  dayCount?: number;
}

/** A write to try: count in the open window, or open a later one. */
export type MeterStep = { kind: 'count'; window: number } | { kind: 'open'; window: number };
export type MeterRefusal = { refused: 'rate' | 'quota'; retryAfterSeconds: number };

/**
 * What to do after a conditional write found the counters as `current`: refuse (the day's quota or the window's
 * rate is spent), or try the other write (the window moved since the caller's guess).
 */
export const nextMeterStep = (current: MeterCounters, at: MeterWindow): MeterStep | MeterRefusal => {
  if ((current.dayCount ?? 0) >= at.dayLimit) return { refused: 'quota', retryAfterSeconds: at.secondsToNextDay };
  if (current.win === undefined || current.win < at.window) return { kind: 'open', window: at.window };
  if ((current.winCount ?? 0) >= at.windowLimit)
    return { refused: 'rate', retryAfterSeconds: current.win === at.window ? at.secondsToNextWindow : 1 };
  // a window at or (by another container's clock) after ours, with room left: count in it
  return { kind: 'count', window: current.win };
};
