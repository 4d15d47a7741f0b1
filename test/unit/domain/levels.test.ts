import { describe, expect, it } from 'vitest';
import { DEMAND_GRID, SUPPLY_GRID } from '../../../shared/domain/limits/cap-grid';
import {
  ancestorsOf,
  entityName,
  isDemandType,
  LEVELS,
  levelNamed,
  levelOfType,
  levelsOfSide,
} from '../../../shared/domain/levels';
import { CAMPAIGN_PER_ACTION, INVENTORY_PER_ACTION } from '../../../shared/domain/permissions';

describe('the table of levels', () => {
  it('has the five levels of the spec, three on the demand side and two on the supply side', () => {
    expect(LEVELS.map((level) => level.level)).toEqual(['advertiser', 'campaign', 'banner', 'site', 'placement']);
    expect(levelsOfSide('demand').map((level) => level.entityType)).toEqual(['ADVERTISER', 'CAMPAIGN', 'BANNER']);
    expect(levelsOfSide('supply').map((level) => level.entityType)).toEqual(['SITE', 'PLACEMENT']);
    expect(isDemandType('BANNER')).toBe(true);
    expect(isDemandType('PLACEMENT')).toBe(false);
  });

  it('gives each level its grid, id field, display name and per-action permission', () => {
    expect(levelNamed('campaign')).toMatchObject({
      entityType: 'CAMPAIGN',
      idField: 'campaignId',
      displayName: 'Campaign',
      grid: DEMAND_GRID,
      perActionPermission: CAMPAIGN_PER_ACTION,
    });
    expect(levelOfType('PLACEMENT')).toMatchObject({
      level: 'placement',
      idField: 'placementId',
      grid: SUPPLY_GRID,
      perActionPermission: INVENTORY_PER_ACTION,
    });
  });

  it('names the ancestors whose shares cover an entity, nearest first, from the ids it stores', () => {
    expect(ancestorsOf('BANNER', { campaignId: 100, advertiserId: 10 })).toEqual([
      { type: 'CAMPAIGN', id: 100 },
      { type: 'ADVERTISER', id: 10 },
    ]);
    expect(ancestorsOf('PLACEMENT', { siteId: 20 })).toEqual([{ type: 'SITE', id: 20 }]);
    expect(ancestorsOf('ADVERTISER', { campaignId: 100 })).toEqual([]);
    expect(ancestorsOf('CAMPAIGN', {})).toEqual([]);
    expect(entityName('SITE', 20)).toBe('SITE#20');
  });
});
