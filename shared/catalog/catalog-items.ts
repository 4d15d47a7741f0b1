import { md5Hex, sha256Hex } from '../domain/auth/crypto';
import {
  ACCESS_PREFIX,
  actionKey,
  apiKeyKey,
  emailKey,
  entityKey,
  entityPK,
  itemKeyText,
  userAccessKey,
  userHashVerifierKey,
  userProfileKey,
  usernameKey,
  type ItemKey,
} from '../table/keys';
import type { Item } from '../adapters/dynamodb/table-store';
import { UPDATE_SHARE_ATTRIBUTE } from '../table/table-definition';
import type { Catalog, CatalogUser } from './catalog-schema';

/** The entity item every level shares: ancestors are denormalised so one read answers access and roll-ups. */
export type EntityItem = ItemKey & {
  type: string;
  id: number;
  parentPK?: string;
  advertiserId?: number;
  campaignId?: number;
  siteId?: number;
  active: boolean;
  deleted: boolean;
  noConversionHoursThreshold?: number;
  noConversionImpressionsThreshold?: number;
};

export const entityItems = (
  catalog: Catalog,
  storedEntities: ReadonlyMap<string, Record<string, unknown>>,
): EntityItem[] => {
  const campaignAdvertiser = new Map<number, number>(catalog.campaigns.map((c) => [c.id, c.advertiserId]));
  const advertiserOfCampaign = (campaignId: number): number | undefined =>
    campaignAdvertiser.get(campaignId) ??
    (storedEntities.get(entityPK('CAMPAIGN', campaignId))?.advertiserId as number | undefined);
  return [
    ...catalog.advertisers.map((a) => ({
      ...entityKey('ADVERTISER', a.id),
      type: 'ADVERTISER',
      id: a.id,
      active: true,
      deleted: a.deleted,
      noConversionHoursThreshold: a.noConversionHoursThreshold,
      noConversionImpressionsThreshold: a.noConversionImpressionsThreshold,
    })),
    ...catalog.campaigns.map((c) => ({
      ...entityKey('CAMPAIGN', c.id),
      type: 'CAMPAIGN',
      id: c.id,
      parentPK: entityPK('ADVERTISER', c.advertiserId),
      advertiserId: c.advertiserId,
      active: c.active,
      deleted: c.deleted,
      noConversionHoursThreshold: c.noConversionHoursThreshold,
      noConversionImpressionsThreshold: c.noConversionImpressionsThreshold,
    })),
    ...catalog.banners.map((b) => ({
      ...entityKey('BANNER', b.id),
      type: 'BANNER',
      id: b.id,
      parentPK: entityPK('CAMPAIGN', b.campaignId),
      campaignId: b.campaignId,
      advertiserId: advertiserOfCampaign(b.campaignId),
      active: true,
      deleted: b.deleted,
      noConversionHoursThreshold: b.noConversionHoursThreshold,
      noConversionImpressionsThreshold: b.noConversionImpressionsThreshold,
    })),
    ...catalog.sites.map((s) => ({
      ...entityKey('SITE', s.id),
      type: 'SITE',
      id: s.id,
      active: true,
      deleted: s.deleted,
    })),
    ...catalog.placements.map((p) => ({
      ...entityKey('PLACEMENT', p.id),
      type: 'PLACEMENT',
      id: p.id,
      parentPK: entityPK('SITE', p.siteId),
      siteId: p.siteId,
      active: true,
      deleted: p.deleted,
    })),
  ];
};

export const actionItems = (catalog: Catalog): Item[] =>
  catalog.actions.map((action) => ({ ...actionKey(action.id), id: action.id, name: action.name }));

/** Profile fields the API writes, not the catalog: an import keeps them (the metering key, credential cut-offs). */
export const API_OWNED_PROFILE_FIELDS = ['usageKey', 'sessionsValidAfter', 'newestResetToken'] as const;

/** Every item of one user: profile, hash verifier, shares and the look-ups by username, e-mail and API key. */
export const userItems = (user: CatalogUser, passwordHash: string, storedProfile: Item = {}): Item[] => {
  const kept = Object.fromEntries(
    API_OWNED_PROFILE_FIELDS.filter((field) => storedProfile[field] !== undefined).map((field) => [
      field,
      storedProfile[field],
    ]),
  );
  const apiKeyDigests = user.apiKeys.map(sha256Hex);
  return [
    {
      ...userProfileKey(user.id),
      userId: user.id,
      username: user.username,
      ...(user.email ? { email: user.email } : {}),
      role: user.role,
      active: user.active,
      passwordHash,
      permissions: user.permissions,
      inventoryPermissions: user.inventoryPermissions,
      apiKeyDigests,
      ...kept,
    },
    { ...userHashVerifierKey(user.id), userId: user.id, md5: md5Hex(user.password) },
    ...user.access.map((share) => ({
      ...userAccessKey(user.id, share.type, share.id),
      type: share.type,
      id: share.id,
      level: share.level,
      // only an UPDATE share lets its holder hear of the entity's events (the webhook dispatcher's index)
      ...(share.level === 'UPDATE' ? { [UPDATE_SHARE_ATTRIBUTE]: entityPK(share.type, share.id) } : {}),
    })),
    { ...usernameKey(user.username), userId: user.id },
    ...(user.email ? [{ ...emailKey(user.email), userId: user.id }] : []),
    ...apiKeyDigests.map((digest) => ({ ...apiKeyKey(digest), userId: user.id })),
  ];
};

/**
 * Items a re-import must delete: catalog-owned items of the user's partition that the new file no longer
 * has, and look-ups (username, e-mail, API keys) the stored profile named that the new one does not.
 */
export const staleUserKeys = (storedPartition: readonly Item[], newItems: readonly Item[]): ItemKey[] => {
  const kept = new Set(newItems.map((item) => itemKeyText(item as unknown as ItemKey)));
  const stale: ItemKey[] = [];
  for (const item of storedPartition) {
    const key = { PK: String(item.PK), SK: String(item.SK) };
    const catalogOwned = key.SK === 'PROFILE' || key.SK === 'HASH_VERIFIER' || key.SK.startsWith(ACCESS_PREFIX);
    if (catalogOwned && !kept.has(itemKeyText(key))) stale.push(key);
    if (key.SK !== 'PROFILE') continue;
    const lookups: ItemKey[] = [
      usernameKey(String(item.username)),
      ...(typeof item.email === 'string' ? [emailKey(item.email)] : []),
      ...((item.apiKeyDigests as string[] | undefined) ?? []).map(apiKeyKey),
    ];
    stale.push(...lookups.filter((lookup) => !kept.has(itemKeyText(lookup))));
  }
  return stale;
};
