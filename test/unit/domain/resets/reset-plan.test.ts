import { describe, expect, it } from 'vitest';
import { DEMAND_GRID, SUPPLY_GRID } from '../../../../shared/domain/limits/cap-grid';
import { parseResetNames, resetPermissions } from '../../../../shared/domain/resets/reset-plan';

const permissionsOf = (names: string[], grid = DEMAND_GRID, setCaps: Record<string, number> = {}) =>
  resetPermissions(names, { grid, perActionPermission: 'Per Action' }, { setCaps }).map((needed) =>
    needed.kind === 'cap' ? needed.cap.permission : needed.permission,
  );

describe('reset plans', () => {
  it('accept one or more of the 29 names, case-sensitive, repeats collapsed', () => {
    expect(parseResetNames(['DAILY_CLICKS', 'DAILY_CLICKS', 'ALL'])).toEqual({
      ok: true,
      names: ['DAILY_CLICKS', 'ALL'],
    });
    expect(parseResetNames([])).toMatchObject({ ok: false, reason: expect.stringContaining('at least one') });
    expect(parseResetNames(['daily_clicks', 'TOTAL_BUDGET'])).toMatchObject({
      ok: false,
      reason: expect.stringContaining('daily_clicks, TOTAL_BUDGET'),
    });
  });

  it('need the permission of each named counter that has a cap on this level', () => {
    expect(permissionsOf(['DAILY_REVENUE', 'TOTAL_CLICKS'])).toEqual(['Daily Budget', 'Total Clicks Limit']);
    // request counters have no cap on the demand side: nothing beyond the level's own permission
    expect(permissionsOf(['TOTAL_REQUESTS'])).toEqual([]);
    expect(permissionsOf(['TOTAL_REQUESTS'], SUPPLY_GRID)).toEqual(['Total Requests Limit']);
  });

  it('need, for ALL_LIMITS, the permissions of the caps the record sets; for ALL_ACTION_LIMITS the per-action one', () => {
    expect(permissionsOf(['ALL_LIMITS'], DEMAND_GRID, { weeklyImpressionsLimit: 5, totalBudgetLimit: 0 })).toEqual([
      'Weekly Impressions Limit',
      'Budget',
    ]);
    expect(permissionsOf(['ALL_ACTION_LIMITS'])).toEqual(['Per Action']);
    expect(permissionsOf(['ALL'], DEMAND_GRID, { dailyClicksLimit: 1 })).toEqual(['Daily Clicks Limit', 'Per Action']);
  });
});
