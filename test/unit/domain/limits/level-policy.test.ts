import { describe, expect, it } from 'vitest';
import { DEMAND_GRID, SUPPLY_GRID } from '../../../../shared/domain/limits/cap-grid';
import { levelPolicy } from '../../../../shared/domain/limits/level-policy';
import { LEVELS } from '../../../../shared/domain/levels';
import { MANAGE_CAPPING, MANAGE_SITE_LIMITS } from '../../../../shared/domain/permissions';
import { grantsWith } from '../../../support/domain-fixtures';

const refused = (permission: string, readOnlySuffices: boolean) => ({ allowed: false, permission, readOnlySuffices });

describe('level policies', () => {
  it('exist for every level of the table and carry its row', () => {
    for (const level of LEVELS) expect(levelPolicy(level.level)).toMatchObject(level);
  });

  it('demand side: Manage Capping read-only reads; enabled writes, deletes and resets', () => {
    const policy = levelPolicy('banner');
    const readOnly = grantsWith({ [MANAGE_CAPPING]: 'READONLY' });
    expect(policy.read(readOnly)).toEqual({ allowed: true });
    for (const decision of [policy.write(readOnly, true), policy.delete(readOnly), policy.reset(readOnly)])
      expect(decision).toEqual(refused(MANAGE_CAPPING, false));
    expect(policy.read(grantsWith({ [MANAGE_CAPPING]: 'DISABLED' }))).toEqual(refused(MANAGE_CAPPING, true));
  });

  it('supply side: Manage Site and Placement Limits read-only saves; creating and deleting also need Manage Capping', () => {
    const policy = levelPolicy('placement');
    const noCapping = grantsWith({ [MANAGE_SITE_LIMITS]: 'READONLY', [MANAGE_CAPPING]: 'DISABLED' });
    expect(policy.write(noCapping, false)).toEqual({ allowed: true });
    expect(policy.reset(noCapping)).toEqual({ allowed: true });
    expect(policy.write(noCapping, true)).toEqual(refused(MANAGE_CAPPING, false));
    expect(policy.delete(noCapping)).toEqual(refused(MANAGE_CAPPING, false));
    expect(policy.read(grantsWith({ [MANAGE_SITE_LIMITS]: 'DISABLED' }))).toEqual(refused(MANAGE_SITE_LIMITS, true));
  });

  it('guards caps by their own permission: general on the demand side, inventory on the supply side', () => {
    const dailyBudget = DEMAND_GRID.byName.get('dailyBudgetLimit')!;
    const dailyClicks = SUPPLY_GRID.byName.get('dailyClicksLimit')!;
    const grants = grantsWith({ 'Daily Budget': 'READONLY', 'Daily Clicks Limit': 'DISABLED' });
    expect(levelPolicy('campaign').capPermission(grants, dailyBudget)).toBe('READONLY');
    expect(levelPolicy('site').capPermission(grants, dailyClicks)).toBe('DISABLED');
    expect(levelPolicy('campaign').capPolicy(grants).forbiddenChange).toBe('ignore');
    expect(levelPolicy('site').capPolicy(grants).forbiddenChange).toBe('refuse');
  });

  it('refuses every demand cap the supply grid does not have, and only those', () => {
    const refusedCaps = levelPolicy('site').capPolicy(grantsWith()).refusedCaps;
    const expected = DEMAND_GRID.caps.filter((cap) => cap.metric === 'budget' || cap.metric === 'opportunities');
    expect([...refusedCaps.keys()].sort()).toEqual(expected.map((cap) => cap.name).sort());
    expect(levelPolicy('campaign').capPolicy(grantsWith()).refusedCaps.size).toBe(0);
    expect(levelPolicy('site').viewPolicy(grantsWith()).reportHidden).toBe(true);
    expect(levelPolicy('advertiser').viewPolicy(grantsWith()).reportHidden).toBe(false);
  });
});
