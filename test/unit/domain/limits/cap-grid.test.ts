import { describe, expect, it } from 'vitest';
import { DEMAND_GRID, SUPPLY_GRID, type CapDefinition } from '../../../../shared/domain/limits/cap-grid';
import { RESET_NAMES } from '../../../../shared/domain/resets/reset-names';

const cap = (name: string): CapDefinition => DEMAND_GRID.byName.get(name) ?? SUPPLY_GRID.byName.get(name)!;

describe('cap grids', () => {
  it('has the 20 demand caps and the 16 supply caps of the spec, each guarded by its named permission', () => {
    expect(DEMAND_GRID.caps).toHaveLength(20);
    expect(SUPPLY_GRID.caps).toHaveLength(16);
    // the spec's per-cap permission names, written out here as the spec lists them
    const periods = ['Daily', 'Weekly', 'Monthly', 'Total'];
    const specDemand = [
      'Daily Budget',
      'Weekly Budget',
      'Monthly Budget',
      'Budget',
      ...periods.flatMap((period) =>
        ['Impressions', 'Clicks', 'Conversions', 'Opportunities'].map((m) => `${period} ${m} Limit`),
      ),
    ];
    const specInventory = periods.flatMap((period) =>
      ['Requests', 'Impressions', 'Clicks', 'Conversions'].map((m) => `${period} ${m} Limit`),
    );
    expect(new Set(DEMAND_GRID.caps.map((c) => c.permission))).toEqual(new Set(specDemand));
    expect(new Set(SUPPLY_GRID.caps.map((c) => c.permission))).toEqual(new Set(specInventory));
    expect(cap('totalBudgetLimit')).toMatchObject({
      counter: 'totalBudget',
      permission: 'Budget',
      resetName: 'TOTAL_REVENUE',
      valueType: 'budget',
    });
    expect(cap('weeklyOpportunitiesLimit')).toMatchObject({
      permission: 'Weekly Opportunities Limit',
      resetName: 'WEEKLY_OPPORTUNITIES',
    });
    expect(cap('monthlyRequestsLimit')).toMatchObject({
      permission: 'Monthly Requests Limit',
      counter: 'monthlyRequests',
    });
    expect(DEMAND_GRID.byName.has('dailyRequestsLimit')).toBe(false);
    expect(SUPPLY_GRID.byName.has('dailyBudgetLimit')).toBe(false);
  });

  it('accepts exactly the 29 reset names of the spec', () => {
    expect(RESET_NAMES.size).toBe(29);
    for (const name of [
      'TOTAL_REVENUE',
      'MONTHLY_REQUESTS',
      'NO_CONVERSIONS_HOURS',
      'ALL',
      'ALL_LIMITS',
      'ALL_ACTION_LIMITS',
    ])
      expect(RESET_NAMES.has(name)).toBe(true);
    expect(RESET_NAMES.has('total_revenue')).toBe(false);
    expect(RESET_NAMES.has('TOTAL_BUDGET')).toBe(false);
  });
});
