import { describe, expect, it } from 'vitest';
import { planResetWrites } from '../../../../shared/domain/resets/reset-writes';

const now = new Date('2026-11-22T12:00:00Z');

describe('reset writes', () => {
  const request = (counters: string[]) => ({
    entityType: 'CAMPAIGN' as const,
    entityId: 100,
    limitId: 1,
    counters,
    requestedAt: '',
    requestedBy: 1,
  });
  /** `<item>:<period>.<metric>`: the entity's own counter item, or `A7` for action 7's. */
  const attributes = (counters: string[]) =>
    planResetWrites(request(counters), [7], now)
      .flatMap((write) =>
        write.zeroes.map(
          ({ period, metric }) =>
            `${write.actionId === undefined ? 'COUNTERS' : `A${write.actionId}`}:${period}.${metric}`,
        ),
      )
      .sort();

  it('zeroes the named counters, REVENUE being the budget counter', () => {
    expect(attributes(['DAILY_IMPRESSIONS', 'TOTAL_REVENUE'])).toEqual([
      'COUNTERS:daily.impressions',
      'COUNTERS:total.budget',
    ]);
  });

  it('tells ALL_LIMITS, ALL_ACTION_LIMITS and ALL apart', () => {
    const limits = attributes(['ALL_LIMITS']);
    expect(limits).toHaveLength(24);
    expect(limits.every((entry) => entry.startsWith('COUNTERS:'))).toBe(true);
    expect(attributes(['ALL_ACTION_LIMITS'])).toEqual(['A7:daily.conversions', 'A7:total.conversions']);
    expect(attributes(['ALL'])).toEqual([...limits, 'A7:daily.conversions', 'A7:total.conversions'].sort());
  });

  it('resets the no-conversion state', () => {
    expect(planResetWrites(request(['NO_CONVERSIONS_HOURS', 'NO_CONVERSIONS_IMPRESSIONS']), [], now)).toEqual([
      { zeroes: [], noConversion: { quietSince: now.getTime(), impressions: true } },
    ]);
  });
});
