import { describe, expect, it } from 'vitest';
import { accessLevel, inventoryPermissionLevel, permissionLevel } from '../../shared/domain/access';
import { requirePermission, requireUpdatableEntity } from '../../shared/handlers/access-checks';
import { loadEntity, loadGrants } from '../../shared/adapters/dynamodb/grants-store';
import { ApiError } from '../../shared/http/api-error';
import { type EntityType } from '../../shared/domain/levels';
import { useTestService } from '../support/local-service';

const ctx = useTestService();

const statusOf = async (run: () => Promise<unknown>): Promise<number | 'ok'> => {
  try {
    await run();
    return 'ok';
  } catch (error) {
    if (error instanceof ApiError) return error.statusCode;
    throw error;
  }
};

const check = (userId: number, type: EntityType, id: number) =>
  statusOf(async () => {
    const { store } = ctx.service.dependencies;
    const [grants, entity] = await Promise.all([loadGrants(store, userId), loadEntity(store, type, id)]);
    return requireUpdatableEntity(grants, type, id, entity);
  });

describe('authorization module', () => {
  it('lets a share on an advertiser cover its campaigns and banners, and nothing else', async () => {
    expect(await check(2, 'ADVERTISER', 10)).toBe('ok');
    expect(await check(2, 'CAMPAIGN', 100)).toBe('ok');
    expect(await check(2, 'BANNER', 1000)).toBe('ok');
    expect(await check(2, 'CAMPAIGN', 102)).toBe(403);
    expect(await check(2, 'BANNER', 1003)).toBe(403);
    expect(await check(2, 'SITE', 20)).toBe(403);
  });

  it('lets a share on a site cover its placements', async () => {
    expect(await check(4, 'PLACEMENT', 200)).toBe('ok');
    expect(await check(4, 'PLACEMENT', 202)).toBe(403);
  });

  it('answers 404 for unknown and deleted entities before any access check', async () => {
    expect(await check(2, 'CAMPAIGN', 103)).toBe(404);
    expect(await check(2, 'BANNER', 1004)).toBe(404);
    expect(await check(2, 'CAMPAIGN', 99999)).toBe(404);
    expect(await check(4, 'SITE', 22)).toBe(404);
  });

  it('tells READ shares from UPDATE shares', async () => {
    await fetch(`${ctx.service.url}/_local/catalog`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        users: [
          {
            id: 50,
            username: 'reader',
            password: 'reader-password',
            access: [{ type: 'CAMPAIGN', id: 100, level: 'READ' }],
          },
        ],
      }),
    });
    const { store } = ctx.service.dependencies;
    const grants = await loadGrants(store, 50);
    expect(accessLevel(grants, (await loadEntity(store, 'BANNER', 1000))!)).toBe('READ');
    expect(await check(50, 'BANNER', 1000)).toBe(403);
  });

  it('reads permission levels, absent meaning DISABLED', async () => {
    const { store } = ctx.service.dependencies;
    const alice = await loadGrants(store, 2);
    expect(permissionLevel(alice, 'Manage Capping & Limitations')).toBe('ENABLED');
    expect(permissionLevel(alice, 'Daily Budget')).toBe('READONLY');
    expect(permissionLevel(alice, 'Daily Conversions Limit')).toBe('DISABLED');
    const publisher = await loadGrants(store, 4);
    expect(inventoryPermissionLevel(publisher, 'Weekly Clicks Limit')).toBe('READONLY');
    expect(inventoryPermissionLevel(publisher, 'Daily Requests Limit')).toBe('DISABLED');
    // the same name on the demand side is a different permission
    expect(permissionLevel(publisher, 'Weekly Clicks Limit')).toBe('DISABLED');
  });

  it('answers 403 naming a missing permission', async () => {
    let caught: unknown;
    try {
      requirePermission('READONLY', 'Manage Capping & Limitations', ['ENABLED']);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ statusCode: 403, extra: { permission: 'Manage Capping & Limitations' } });
    expect((caught as ApiError).message).toContain('Manage Capping & Limitations');
    expect(() => requirePermission('READONLY', 'X', ['ENABLED', 'READONLY'])).not.toThrow();
  });
});
