import { hashPassword, sha256Hex, verifyPassword } from '../domain/auth/crypto';
import { apiKeyKey, emailKey, entityKey, itemKeyText, userPK, usernameKey, type ItemKey } from '../table/keys';
import type { Item, TableStore } from '../adapters/dynamodb/table-store';
import type { Catalog } from './catalog-schema';
import { actionItems, entityItems, staleUserKeys, userItems } from './catalog-items';
import {
  crossCheckCatalog,
  parentReferencesOutsideFile,
  parseCatalog,
  type CatalogProblem,
  type StoredFacts,
} from './catalog-validation';

export type CatalogCounts = Record<
  'users' | 'advertisers' | 'campaigns' | 'banners' | 'sites' | 'placements' | 'actions',
  number
>;

export type ImportResult = { ok: true; counts: CatalogCounts } | { ok: false; problems: CatalogProblem[] };

const owners = (items: readonly Item[], prefix: string): Map<string, number> =>
  new Map(
    items
      .filter((item) => String(item.PK).startsWith(prefix))
      .map((item) => [String(item.PK).slice(prefix.length), Number(item.userId)]),
  );

const storedFacts = async (store: TableStore, catalog: Catalog): Promise<StoredFacts> => {
  const keys: ItemKey[] = [
    ...parentReferencesOutsideFile(catalog).map((reference) => entityKey(reference.type, reference.id)),
    // banners whose campaign is stored need that campaign's advertiser
    ...catalog.banners.map((banner) => entityKey('CAMPAIGN', banner.campaignId)),
    ...catalog.users.flatMap((user) => [
      usernameKey(user.username),
      ...(user.email ? [emailKey(user.email)] : []),
      ...user.apiKeys.map((key) => apiKeyKey(sha256Hex(key))),
    ]),
  ];
  const unique = [...new Map(keys.map((key) => [itemKeyText(key), key])).values()];
  const items = await store.batchGet(unique);
  return {
    entities: new Map(items.filter((item) => item.SK === 'ENTITY').map((item) => [String(item.PK), item])),
    usernameOwners: owners(items, 'USERNAME#'),
    emailOwners: owners(items, 'EMAIL#'),
    apiKeyOwners: owners(items, 'APIKEY#'),
  };
};

/** How a user's password is hashed when its stored hash does not match it: `hashPassword` unless given. */
export type UserPasswordHasher = (username: string, password: string) => Promise<string>;

/** The stored hash when it still matches the password, so importing the same file twice changes nothing. */
const passwordHashFor = async (
  { username, password }: Catalog['users'][number],
  storedProfile: Item | undefined,
  hashUserPassword: UserPasswordHasher,
): Promise<string> => {
  const stored = storedProfile?.passwordHash;
  if (typeof stored === 'string' && (await verifyPassword(password, stored))) return stored;
  return hashUserPassword(username, password);
};

/**
 * The one catalog importer (npm start, POST /_local/catalog, the CLI): validates everything first and
 * writes nothing when any problem is found; otherwise upserts every item.
 */
export const importCatalog = async (
  store: TableStore,
  input: unknown,
  {
    hashUserPassword = (_username, password) => hashPassword(password),
  }: { hashUserPassword?: UserPasswordHasher } = {},
): Promise<ImportResult> => {
  const parsed = parseCatalog(input);
  if (!parsed.catalog) return { ok: false, problems: parsed.problems };
  const catalog = parsed.catalog;
  const facts = await storedFacts(store, catalog);
  const problems = crossCheckCatalog(catalog, facts);
  if (problems.length > 0) return { ok: false, problems };

  const puts: Item[] = [...entityItems(catalog, facts.entities), ...actionItems(catalog)];
  const deletes: ItemKey[] = [];
  for (const user of catalog.users) {
    const partition = await store.queryPartition(userPK(user.id));
    const storedProfile = partition.find((item) => item.SK === 'PROFILE');
    const items = userItems(user, await passwordHashFor(user, storedProfile, hashUserPassword), storedProfile);
    puts.push(...items);
    deletes.push(...staleUserKeys(partition, items));
  }
  await store.batchWrite(puts, deletes);
  return {
    ok: true,
    counts: {
      users: catalog.users.length,
      advertisers: catalog.advertisers.length,
      campaigns: catalog.campaigns.length,
      banners: catalog.banners.length,
      sites: catalog.sites.length,
      placements: catalog.placements.length,
      actions: catalog.actions.length,
    },
  };
};
