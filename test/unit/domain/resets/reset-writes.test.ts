import { describe, expect, it } from 'vitest';
import { planResetWrites } from '../../../../shared/domain/resets/reset-writes';
import { resetWriteKey } from '../../../../shared/resets/flush';

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
  const attributes = (counters: string[]) =>
    planResetWrites(request(counters), [7], now)
      .flatMap((write) =>
        Object.keys(write.values).map((attribute) => `${resetWriteKey('CAMPAIGN', 100, write.target).SK}:${attribute}`),
      )
      .sort();

  it('zeroes the named counters of the current buckets, REVENUE being the budget counter', () => {
    expect(attributes(['DAILY_IMPRESSIONS', 'TOTAL_REVENUE'])).toEqual([
      'CTR#D#2026-11-22:impressions',
      'CTR#T:revenue',
    ]);
  });

  it('tells ALL_LIMITS, ALL_ACTION_LIMITS and ALL apart', () => {
    const limits = attributes(['ALL_LIMITS']);
    expect(limits).toHaveLength(24);
    expect(limits.every((entry) => entry.startsWith('CTR#'))).toBe(true);
    expect(attributes(['ALL_ACTION_LIMITS'])).toEqual(['ACTCTR#7#D#2026-11-22:conversions', 'ACTCTR#7#T:conversions']);
    expect(attributes(['ALL'])).toEqual(
      [...limits, 'ACTCTR#7#D#2026-11-22:conversions', 'ACTCTR#7#T:conversions'].sort(),
    );
  });

  it('resets the no-conversion state', () => {
    const writes = planResetWrites(request(['NO_CONVERSIONS_HOURS', 'NO_CONVERSIONS_IMPRESSIONS']), [], now);
    expect(
      writes.map((write) => ({ key: resetWriteKey('CAMPAIGN', 100, write.target), values: write.values })),
    ).toEqual([
      {
        key: { PK: 'CAMPAIGN#100', SK: 'NOCONV' },
        values: { quietSince: now.getTime(), impressionsSinceConversion: 0 },
      },
    ]);
  });
});
