import { describe, expect, it } from 'vitest';
import { bucketCrossings, crosses } from '../../../../shared/domain/delivery/limit-reached';
import { DEMAND_GRID } from '../../../../shared/domain/limits/cap-grid';
import type { LimitRecord } from '../../../../shared/domain/limits/limit-record';

const now = new Date('2026-11-22T12:00:00Z');

describe('LimitReached', () => {
  it('is published when a write crosses the cap, equal counts included, and not after', () => {
    expect(crosses(100, 99, 100)).toBe(true);
    expect(crosses(100, 100, 101)).toBe(false);
    expect(crosses(0, 0, 5)).toBe(false);
    const limit = {
      id: 1,
      version: 1,
      caps: { dailyBudgetLimit: 1, dailyClicksLimit: 10 },
      evenPacing: false,
      useLocalTime: false,
      timezoneOffset: 0,
    } as LimitRecord;
    const increment = {
      bucket: 'D#2026-11-22',
      entityType: 'CAMPAIGN' as const,
      entityId: 100,
      period: 'daily' as const,
      counts: { clicks: 3 },
      revenueMillis: 1,
    };
    expect(
      bucketCrossings(increment, { clicks: 10, revenue: 1 }, limit, DEMAND_GRID, now).map((event) => event.cap),
    ).toEqual(['dailyClicksLimit', 'dailyBudgetLimit']);
    expect(bucketCrossings(increment, { clicks: 13, revenue: 1.001 }, limit, DEMAND_GRID, now)).toEqual([]);
  });
});
