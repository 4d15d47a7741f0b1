import { describe, expect, it } from 'vitest';
import { DEMAND_CAP_PERMISSIONS, INVENTORY_CAP_PERMISSIONS } from '../../shared/domain/permissions';
import { DEMAND_GRID, SUPPLY_GRID, type CapDefinition } from '../../shared/domain/limits/cap-grid';
import { parseCapValue } from '../../shared/domain/limits/cap-values';
import { formatLimitDate, parseLimitDate, parseTimezoneOffset } from '../../shared/domain/limits/limit-dates';
import { bucketOf, isoWeek } from '../../shared/domain/limits/periods';
import { RESET_NAMES } from '../../shared/domain/resets/reset-names';

const cap = (name: string): CapDefinition => DEMAND_GRID.byName.get(name) ?? SUPPLY_GRID.byName.get(name)!;

describe('cap grids', () => {
  it('has the 20 demand caps and the 16 supply caps of the spec, each guarded by its named permission', () => {
    expect(DEMAND_GRID.caps).toHaveLength(20);
    expect(SUPPLY_GRID.caps).toHaveLength(16);
    expect(new Set(DEMAND_GRID.caps.map((c) => c.permission))).toEqual(new Set(DEMAND_CAP_PERMISSIONS));
    expect(new Set(SUPPLY_GRID.caps.map((c) => c.permission))).toEqual(new Set(INVENTORY_CAP_PERMISSIONS));
    expect(cap('totalBudgetLimit')).toMatchObject({ counter: 'totalBudget', permission: 'Budget', resetName: 'TOTAL_REVENUE', valueType: 'budget' });
    expect(cap('weeklyOpportunitiesLimit')).toMatchObject({ permission: 'Weekly Opportunities Limit', resetName: 'WEEKLY_OPPORTUNITIES' });
    expect(cap('monthlyRequestsLimit')).toMatchObject({ permission: 'Monthly Requests Limit', counter: 'monthlyRequests' });
    expect(DEMAND_GRID.byName.has('dailyRequestsLimit')).toBe(false);
    expect(SUPPLY_GRID.byName.has('dailyBudgetLimit')).toBe(false);
  });

  it('accepts exactly the 29 reset names of the spec', () => {
    expect(RESET_NAMES.size).toBe(29);
    for (const name of ['TOTAL_REVENUE', 'MONTHLY_REQUESTS', 'NO_CONVERSIONS_HOURS', 'ALL', 'ALL_LIMITS', 'ALL_ACTION_LIMITS']) expect(RESET_NAMES.has(name)).toBe(true);
    expect(RESET_NAMES.has('total_revenue')).toBe(false);
    expect(RESET_NAMES.has('TOTAL_BUDGET')).toBe(false);
  });
});

describe('cap values', () => {
  const ok = (name: string, text: string) => parseCapValue(cap(name), text);
  it('takes whole counts from 0 to 4,000,000,000', () => {
    expect(ok('dailyImpressionsLimit', '0')).toEqual({ ok: true, value: 0 });
    expect(ok('dailyImpressionsLimit', '4000000000')).toEqual({ ok: true, value: 4_000_000_000 });
    for (const bad of ['4000000001', '-1', '1.5', '1e3', '', ' 1', 'abc', '+1', '0x10', '99999999999']) expect(ok('dailyImpressionsLimit', bad).ok, bad).toBe(false);
  });

  it('takes budgets with at most three decimals up to 9,999,999,999.999, exactly', () => {
    expect(ok('dailyBudgetLimit', '9999999999.999')).toEqual({ ok: true, value: 9999999999.999 });
    expect(String(9999999999.999)).toBe('9999999999.999');
    expect(ok('dailyBudgetLimit', '0.001')).toEqual({ ok: true, value: 0.001 });
    expect(ok('dailyBudgetLimit', '12.50')).toEqual({ ok: true, value: 12.5 });
    for (const bad of ['0.0001', '-0.5', '10000000000', '1e2', '.5', '5.', 'NaN', 'Infinity']) expect(ok('dailyBudgetLimit', bad).ok, bad).toBe(false);
  });
});

describe('limit dates', () => {
  it('reads both formats in UTC and strictly', () => {
    expect(parseLimitDate('2026-11-22-10-30', 0)).toEqual({ ok: true, value: Date.UTC(2026, 10, 22, 10, 30) });
    expect(parseLimitDate('2026-11-22 10:30', 0)).toEqual({ ok: true, value: Date.UTC(2026, 10, 22, 10, 30) });
    expect(parseLimitDate('2028-02-29 00:00', 0).ok).toBe(true);
    for (const bad of ['2026-13-01 00:00', '2026-02-29 00:00', '2026-02-30-00-00', '2026-11-22 24:00', '2026-11-22 10:60', '2026-04-31 00:00'])
      expect(parseLimitDate(bad, 0)).toMatchObject({ ok: false, reason: expect.stringContaining('real') });
  });

  it('names both formats when the shape is wrong', () => {
    for (const bad of ['2026-11-22', '2026-11-22T10:30', '22.11.2026 10:30', '2026-11-22 10-30', '', '2026-1-2 1:2'])
      expect(parseLimitDate(bad, 0)).toMatchObject({ ok: false, reason: expect.stringMatching(/yyyy-MM-dd-HH-mm.*yyyy-MM-dd HH:mm/) });
  });

  it('reads local dates in the offset and stores UTC: 12:00 at +90 is 10:30 UTC', () => {
    expect(parseLimitDate('2026-11-22 12:00', 90)).toEqual({ ok: true, value: Date.UTC(2026, 10, 22, 10, 30) });
    expect(parseLimitDate('2026-11-22 00:30', -60)).toEqual({ ok: true, value: Date.UTC(2026, 10, 22, 1, 30) });
  });

  it('renders yyyy-MM-dd-HH-mm, in an offset when asked', () => {
    const instant = Date.UTC(2026, 10, 22, 10, 30);
    expect(formatLimitDate(instant)).toBe('2026-11-22-10-30');
    expect(formatLimitDate(instant, 90)).toBe('2026-11-22-12-00');
    expect(formatLimitDate(instant, -840)).toBe('2026-11-21-20-30');
  });

  it('takes offsets from -840 to 840 minutes', () => {
    expect(parseTimezoneOffset('-840')).toEqual({ ok: true, value: -840 });
    expect(parseTimezoneOffset('840')).toEqual({ ok: true, value: 840 });
    for (const bad of ['841', '-841', '1.5', 'x', '']) expect(parseTimezoneOffset(bad).ok, bad).toBe(false);
  });
});

describe('period buckets', () => {
  it('rolls daily at UTC midnight, weekly on Monday (ISO), monthly on the 1st', () => {
    expect(bucketOf('daily', new Date('2026-11-22T23:59:59Z'))).toBe('D#2026-11-22');
    expect(bucketOf('daily', new Date('2026-11-23T00:00:00Z'))).toBe('D#2026-11-23');
    // Sunday 2026-11-22 is in week 47, Monday 2026-11-23 starts week 48
    expect(bucketOf('weekly', new Date('2026-11-22T23:59:59Z'))).toBe('W#2026-W47');
    expect(bucketOf('weekly', new Date('2026-11-23T00:00:00Z'))).toBe('W#2026-W48');
    expect(bucketOf('monthly', new Date('2026-11-30T23:59:59Z'))).toBe('M#2026-11');
    expect(bucketOf('monthly', new Date('2026-12-01T00:00:00Z'))).toBe('M#2026-12');
    expect(bucketOf('total', new Date())).toBe('T');
  });

  it('puts the turn of the year into the right ISO year', () => {
    expect(isoWeek(new Date('2026-12-31T12:00:00Z'))).toEqual({ year: 2026, week: 53 });
    expect(isoWeek(new Date('2027-01-03T12:00:00Z'))).toEqual({ year: 2026, week: 53 });
    expect(isoWeek(new Date('2027-01-04T12:00:00Z'))).toEqual({ year: 2027, week: 1 });
    expect(isoWeek(new Date('2024-12-30T12:00:00Z'))).toEqual({ year: 2025, week: 1 });
  });
});

