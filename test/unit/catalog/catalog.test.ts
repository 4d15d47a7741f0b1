import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEMO_CATALOG_FILE } from '../../../infra/local/demo-catalog-file';
import { sha256Hex } from '../../../shared/domain/auth/crypto';
import { staleUserKeys, userItems } from '../../../shared/catalog/catalog-items';
import type { CatalogUser } from '../../../shared/catalog/catalog-schema';
import {
  crossCheckCatalog,
  parentReferencesOutsideFile,
  parseCatalog,
  type StoredFacts,
} from '../../../shared/catalog/catalog-validation';

const demo = JSON.parse(readFileSync(DEMO_CATALOG_FILE, 'utf8'));
const noFacts: StoredFacts = {
  entities: new Map(),
  usernameOwners: new Map(),
  emailOwners: new Map(),
  apiKeyOwners: new Map(),
};

const problemsOf = (input: unknown) => parseCatalog(input).problems;

describe('catalog validation', () => {
  it('accepts the demo catalog', () => {
    const parsed = parseCatalog(demo);
    expect(parsed.problems).toEqual([]);
    expect(crossCheckCatalog(parsed.catalog!, noFacts)).toEqual([]);
  });

  it('fills in the documented defaults', () => {
    const parsed = parseCatalog({
      campaigns: [{ id: 1, advertiserId: 2 }],
      users: [{ id: 1, username: 'u', password: 'p' }],
    });
    expect(parsed.catalog?.campaigns[0]).toEqual({
      id: 1,
      advertiserId: 2,
      active: true,
      deleted: false,
      noConversionHoursThreshold: 0,
      noConversionImpressionsThreshold: 0,
    });
    expect(parsed.catalog?.users[0]).toMatchObject({
      active: true,
      apiKeys: [],
      permissions: {},
      inventoryPermissions: {},
      access: [],
    });
    expect(parsed.catalog?.advertisers).toEqual([]);
  });

  it('names every problem with its JSON path', () => {
    const problems = problemsOf({
      users: [{ id: 1, username: 'u', password: 'p', permissions: { 'Manage Everything': 'ENABLED' } }],
      campaigns: [
        { id: -1, advertiserId: 10 },
        { id: 2, advertiserId: 'ten' },
      ],
      surprise: [],
    });
    const paths = problems.map((problem) => problem.path);
    expect(paths).toEqual(
      expect.arrayContaining(['$', '$.users[0].permissions', '$.campaigns[0].id', '$.campaigns[1].advertiserId']),
    );
    expect(problems.find((p) => p.path === '$.users[0].permissions')?.reason).toContain('Manage Everything');
    expect(problems.find((p) => p.path === '$')?.reason).toContain('surprise');
  });

  it('refuses unknown keys inside entries', () => {
    expect(problemsOf({ sites: [{ id: 1, name: 'x' }] }).map((p) => p.path)).toContain('$.sites[0]');
  });

  it('refuses permission levels and access levels outside the lists', () => {
    const paths = problemsOf({
      users: [
        {
          id: 1,
          username: 'u',
          password: 'p',
          inventoryPermissions: { 'Daily Clicks Limit': 'YES' },
          access: [{ type: 'SITE', id: 1, level: 'WRITE' }],
        },
      ],
    }).map((p) => p.path);
    expect(paths).toEqual(['$.users[0].inventoryPermissions.Daily Clicks Limit', '$.users[0].access[0].level']);
  });

  it('refuses duplicate ids, usernames, e-mails and API keys', () => {
    const problems = problemsOf({
      advertisers: [{ id: 1 }, { id: 1 }],
      users: [
        { id: 1, username: 'a', password: 'p', email: 'A@example.com', apiKeys: ['key-00000001'] },
        { id: 2, username: 'a', password: 'p', email: 'a@example.com', apiKeys: ['key-00000001'] },
      ],
    });
    expect(problems.map((p) => p.path).sort()).toEqual(
      ['$.advertisers[1].id', '$.users[1].apiKeys[0]', '$.users[1].email', '$.users[1].username'].sort(),
    );
  });

  it('resolves parents within the file first, then in the store', () => {
    const catalog = parseCatalog({
      advertisers: [{ id: 1 }],
      campaigns: [
        { id: 10, advertiserId: 1 },
        { id: 11, advertiserId: 2 },
      ],
      banners: [{ id: 100, campaignId: 12 }],
      placements: [{ id: 5, siteId: 6 }],
    }).catalog!;
    expect(parentReferencesOutsideFile(catalog).map((r) => r.path)).toEqual([
      '$.campaigns[1].advertiserId',
      '$.banners[0].campaignId',
      '$.placements[0].siteId',
    ]);
    const facts: StoredFacts = { ...noFacts, entities: new Map([['ADVERTISER#2', {}]]) };
    expect(crossCheckCatalog(catalog, facts).map((p) => p.path)).toEqual([
      '$.banners[0].campaignId',
      '$.placements[0].siteId',
    ]);
  });

  it('refuses names and keys that belong to another stored user, not to the same one', () => {
    const catalog = parseCatalog({
      users: [{ id: 1, username: 'a', password: 'p', email: 'a@example.com', apiKeys: ['key-00000001'] }],
    }).catalog!;
    const foreign: StoredFacts = {
      ...noFacts,
      usernameOwners: new Map([['a', 2]]),
      emailOwners: new Map([['a@example.com', 2]]),
      apiKeyOwners: new Map([[sha256Hex('key-00000001'), 2]]),
    };
    expect(crossCheckCatalog(catalog, foreign)).toHaveLength(3);
    const own: StoredFacts = { ...noFacts, usernameOwners: new Map([['a', 1]]) };
    expect(crossCheckCatalog(catalog, own)).toEqual([]);
  });
});

describe('catalog items of a user', () => {
  const user = (changes: Partial<CatalogUser> = {}): CatalogUser => ({
    id: 1,
    username: 'a',
    password: 'secret-password',
    role: 'ADVERTISER',
    active: true,
    apiKeys: ['key-00000001'],
    permissions: {},
    inventoryPermissions: {},
    access: [{ type: 'ADVERTISER', id: 10, level: 'UPDATE' }],
    ...changes,
  });

  it('stores the API key and the password only as digests', () => {
    const items = userItems(user(), 'scrypt$hash');
    const text = JSON.stringify(items);
    expect(text).not.toContain('key-00000001');
    expect(text).not.toContain('secret-password');
    expect(items.map((item) => item.PK)).toContain(`APIKEY#${sha256Hex('key-00000001')}`);
  });

  it('deletes on re-import only what the new file no longer has', () => {
    const before = userItems(user({ apiKeys: ['key-00000001', 'key-00000002'], email: 'a@example.com' }), 'h');
    const after = userItems(user({ username: 'b', apiKeys: ['key-00000002'], access: [] }), 'h');
    const stale = staleUserKeys(before, after)
      .map((key) => `${key.PK}|${key.SK}`)
      .sort();
    expect(stale).toEqual(
      [
        'USER#1|ACCESS#ADVERTISER#10',
        'USERNAME#a|USERNAME',
        'EMAIL#a@example.com|EMAIL',
        `APIKEY#${sha256Hex('key-00000001')}|APIKEY`,
      ].sort(),
    );
    expect(staleUserKeys(after, after)).toEqual([]);
  });
});
