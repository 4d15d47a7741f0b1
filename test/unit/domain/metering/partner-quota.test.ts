import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PLAN,
  meterWindow,
  nextMeterStep,
  partnerPlan,
} from '../../../../shared/domain/metering/partner-quota';

describe("a partner's quota kept with counters", () => {
  it("has a keyed partner's numbers: five times the default plan's rate and burst, ten times its quota", () => {
    expect(DEFAULT_PLAN).toEqual({ rateLimit: 50, burstLimit: 100, quotaPerDay: 100_000 });
    expect(partnerPlan()).toEqual({ rateLimit: 250, burstLimit: 500, quotaPerDay: 1_000_000 });
  });

  it('counts in windows of burst / rate seconds that take the burst, and in UTC days', () => {
    const at = meterWindow(partnerPlan(), new Date('2026-11-24T23:59:59.500Z'));
    expect(at).toMatchObject({ day: '2026-11-24', windowLimit: 500, dayLimit: 1_000_000, secondsToNextDay: 1 });
    expect(at.window).toBe(Math.floor(Date.parse('2026-11-24T23:59:58Z') / 2000));
    expect(at.secondsToNextWindow).toBe(1);
    const even = meterWindow({ rateLimit: 10, burstLimit: 5, quotaPerDay: 9 }, new Date('2026-11-24T00:00:00Z'));
    expect(even).toMatchObject({ windowLimit: 10, secondsToNextWindow: 1, secondsToNextDay: 86_400 });
  });

  it('refuses when the day or the window is spent, and otherwise names the write that will take the request', () => {
    const at = meterWindow(partnerPlan(), new Date('2026-11-24T12:00:00Z'));
    expect(nextMeterStep({}, at)).toEqual({ kind: 'open', window: at.window });
    expect(nextMeterStep({ win: at.window - 3, winCount: 500, dayCount: 7 }, at)).toEqual({
      kind: 'open',
      window: at.window,
    });
    expect(nextMeterStep({ win: at.window, winCount: 499, dayCount: 7 }, at)).toEqual({
      kind: 'count',
      window: at.window,
    });
    expect(nextMeterStep({ win: at.window + 1, winCount: 3, dayCount: 7 }, at)).toEqual({
      kind: 'count',
      window: at.window + 1,
    });
    expect(nextMeterStep({ win: at.window, winCount: 500, dayCount: 7 }, at)).toEqual({
      refused: 'rate',
      retryAfterSeconds: at.secondsToNextWindow,
    });
    expect(nextMeterStep({ win: at.window - 1, winCount: 1, dayCount: 1_000_000 }, at)).toEqual({
      refused: 'quota',
      retryAfterSeconds: 43_200,
    });
  });
});
