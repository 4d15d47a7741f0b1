import type { z } from 'zod';
import { sha256Hex } from '../domain/auth/crypto';
import { entityPK } from '../table/keys';
import { type EntityType } from '../domain/levels';
import { catalogSchema, type Catalog } from './catalog-schema';

export interface CatalogProblem {
  /** JSON path of the offending value, e.g. `$.campaigns[2].advertiserId`. */
  path: string;
  reason: string;
}

const jsonPath = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : `${text}.${String(part)}`), '$');

const fromZodIssue = (issue: z.core.$ZodIssue): CatalogProblem => ({
  path: jsonPath(issue.path),
  reason: issue.message,
});

export type ParsedCatalog = { catalog: Catalog; problems: [] } | { catalog?: undefined; problems: CatalogProblem[] };

/** Shape checks and the checks that need nothing but the file: unique ids, usernames, e-mails, API keys. */
export const parseCatalog = (input: unknown): ParsedCatalog => {
  const parsed = catalogSchema.safeParse(input);
  if (!parsed.success) return { problems: parsed.error.issues.map(fromZodIssue) };
  const catalog = parsed.data;
  const problems: CatalogProblem[] = [];
  const unique = (section: string, values: readonly (string | number | undefined)[], what: string, field: string) => {
    const seen = new Set<string | number>();
    values.forEach((value, index) => {
      if (value === undefined) return;
      if (seen.has(value))
        problems.push({ path: `$.${section}[${index}].${field}`, reason: `duplicate ${what} ${value}` });
      seen.add(value);
    });
  };
  for (const section of ['users', 'advertisers', 'campaigns', 'banners', 'sites', 'placements', 'actions'] as const)
    unique(
      section,
      catalog[section].map((entry) => entry.id),
      'id',
      'id',
    );
  unique(
    'users',
    catalog.users.map((user) => user.username),
    'username',
    'username',
  );
  unique(
    'users',
    catalog.users.map((user) => user.email?.toLowerCase()),
    'email',
    'email',
  );
  const keyOwner = new Map<string, number>();
  catalog.users.forEach((user, userIndex) =>
    user.apiKeys.forEach((key, keyIndex) => {
      if (keyOwner.has(key))
        problems.push({ path: `$.users[${userIndex}].apiKeys[${keyIndex}]`, reason: 'API key given twice' });
      keyOwner.set(key, user.id);
    }),
  );
  return problems.length > 0 ? { problems } : { catalog, problems: [] };
};

export interface ParentReference {
  path: string;
  type: EntityType;
  id: number;
}

/** References to parents that the file itself does not hold; they must already be stored. */
export const parentReferencesOutsideFile = (catalog: Catalog): ParentReference[] => {
  const ids = (list: readonly { id: number }[]) => new Set(list.map((entry) => entry.id));
  const advertisers = ids(catalog.advertisers);
  const campaigns = ids(catalog.campaigns);
  const sites = ids(catalog.sites);
  return [
    ...catalog.campaigns.map((c, i) => ({
      path: `$.campaigns[${i}].advertiserId`,
      type: 'ADVERTISER' as const,
      id: c.advertiserId,
      inFile: advertisers.has(c.advertiserId),
    })),
    ...catalog.banners.map((b, i) => ({
      path: `$.banners[${i}].campaignId`,
      type: 'CAMPAIGN' as const,
      id: b.campaignId,
      inFile: campaigns.has(b.campaignId),
    })),
    ...catalog.placements.map((p, i) => ({
      path: `$.placements[${i}].siteId`,
      type: 'SITE' as const,
      id: p.siteId,
      inFile: sites.has(p.siteId),
    })),
  ]
    .filter((reference) => !reference.inFile)
    .map(({ path, type, id }) => ({ path, type, id }));
};

/** What the table already holds that the file's checks depend on. */
export interface StoredFacts {
  /** Stored entity items by partition key. */
  entities: ReadonlyMap<string, Record<string, unknown>>;
  /** Owner user id of stored usernames, e-mails (lower case) and API key digests. */
  usernameOwners: ReadonlyMap<string, number>;
  emailOwners: ReadonlyMap<string, number>;
  apiKeyOwners: ReadonlyMap<string, number>;
}

/** Checks of the file against the stored catalog: parents must exist, names and keys must not belong to another user. */
export const crossCheckCatalog = (catalog: Catalog, facts: StoredFacts): CatalogProblem[] => {
  const problems: CatalogProblem[] = parentReferencesOutsideFile(catalog)
    .filter((reference) => !facts.entities.has(entityPK(reference.type, reference.id)))
    .map((reference) => ({
      path: reference.path,
      reason: `${reference.type} ${reference.id} is neither in the file nor stored`,
    }));
  catalog.users.forEach((user, index) => {
    const taken = (owner: number | undefined) => owner !== undefined && owner !== user.id;
    if (taken(facts.usernameOwners.get(user.username)))
      problems.push({ path: `$.users[${index}].username`, reason: 'username belongs to another stored user' });
    if (user.email && taken(facts.emailOwners.get(user.email.toLowerCase())))
      problems.push({ path: `$.users[${index}].email`, reason: 'email belongs to another stored user' });
    user.apiKeys.forEach((key, keyIndex) => {
      if (taken(facts.apiKeyOwners.get(sha256Hex(key))))
        problems.push({
          path: `$.users[${index}].apiKeys[${keyIndex}]`,
          reason: 'API key belongs to another stored user',
        });
    });
  });
  return problems;
};
