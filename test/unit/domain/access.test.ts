import { describe, expect, it } from 'vitest';
import { accessLevel, permissionDecision, updatableEntity, type Entity } from '../../../shared/domain/access';
import { grantsWith } from '../../support/domain-fixtures';

const banner: Entity = { type: 'BANNER', id: 1000, campaignId: 100, advertiserId: 10, active: true, deleted: false };

describe('access', () => {
  it('lets a share on the entity or any ancestor cover it, UPDATE winning over READ', () => {
    expect(accessLevel(grantsWith({}, { 'ADVERTISER#10': 'READ' }), banner)).toBe('READ');
    expect(accessLevel(grantsWith({}, { 'ADVERTISER#10': 'READ', 'CAMPAIGN#100': 'UPDATE' }), banner)).toBe('UPDATE');
    expect(accessLevel(grantsWith({}, { 'CAMPAIGN#101': 'UPDATE', 'SITE#10': 'UPDATE' }), banner)).toBeUndefined();
  });

  it('decides not found before no access, and no access without an UPDATE share', () => {
    const grants = grantsWith({}, { 'CAMPAIGN#100': 'READ' });
    expect(updatableEntity(grants, 'BANNER', undefined)).toMatchObject({ allowed: false, reason: 'notFound' });
    expect(updatableEntity(grants, 'BANNER', { ...banner, deleted: true })).toMatchObject({ reason: 'notFound' });
    expect(updatableEntity(grants, 'BANNER', banner)).toEqual({
      allowed: false,
      reason: 'noAccess',
      displayName: 'Banner',
    });
    expect(updatableEntity(grantsWith({}, { 'ADVERTISER#10': 'UPDATE' }), 'BANNER', banner)).toEqual({
      allowed: true,
      entity: banner,
    });
  });

  it('returns a permission decision that names what is missing and whether read-only would do', () => {
    expect(permissionDecision('READONLY', 'P', ['ENABLED', 'READONLY'])).toEqual({ allowed: true });
    expect(permissionDecision('READONLY', 'P', ['ENABLED'])).toEqual({
      allowed: false,
      permission: 'P',
      readOnlySuffices: false,
    });
    expect(permissionDecision('DISABLED', 'P', ['ENABLED', 'READONLY'])).toEqual({
      allowed: false,
      permission: 'P',
      readOnlySuffices: true,
    });
  });
});
