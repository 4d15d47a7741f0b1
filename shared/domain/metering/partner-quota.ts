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
  windowSeconds: number;
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
    windowSeconds,
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

/** What is left of a metered caller's plan after a request: in its rate window and in its day. */
export interface MeterStanding {
  at: MeterWindow;
  windowCount: number;
  dayCount: number;
}

/**
 * The IETF draft's rate-limit fields (draft-ietf-httpapi-ratelimit-headers, structured fields): one policy per
 * limit the caller is held to, named `"day"` and `"rate"`, with its quota `q` and window `w` in seconds; and per
 * policy what remains, `r`, and the seconds until it renews, `t`.
 */
export const rateLimitFields = ({ at, windowCount, dayCount }: MeterStanding): Record<string, string> => {
  return {
    'RateLimit-Policy': `"day";q=${at.dayLimit};w=86400, "rate";q=${at.windowLimit};w=${at.windowSeconds}`,
    RateLimit:
      `"day";r=${Math.max(0, at.dayLimit - dayCount)};t=${at.secondsToNextDay}, ` +
      `"rate";r=${Math.max(0, at.windowLimit - windowCount)};t=${at.secondsToNextWindow}`,
  };
};
