import { forbidden, notFound } from '../http/api-error';
import { ACCESS_PREFIX, entityKey, entityPK, userPK, type EntityType } from '../table/keys';
import type { Item, TableStore } from '../adapters/dynamodb/table-store';
import type { AccessLevel, PermissionLevel } from './permissions';

/** What a user may do: permission levels by name and shares by entity partition key. */
export interface Grants {
  userId: number;
  permissions: Readonly<Record<string, string>>;
  inventoryPermissions: Readonly<Record<string, string>>;
  shares: ReadonlyMap<string, AccessLevel>;
}

/** The stored entity, with its ancestors denormalised by the catalog importer. */
export interface Entity {
  type: EntityType;
  id: number;
  deleted: boolean;
  active: boolean;
  advertiserId?: number;
  campaignId?: number;
  siteId?: number;
  noConversionHoursThreshold?: number;
  noConversionImpressionsThreshold?: number;
}

/** Profile and shares of a user in one query on the user's partition. */
export const loadGrants = async (store: TableStore, userId: number): Promise<Grants> => {
  const items = await store.queryPartition(userPK(userId));
  const profile: Item = items.find((item) => item.SK === 'PROFILE') ?? {};
  const shares = new Map<string, AccessLevel>(
    items
      .filter((item) => String(item.SK).startsWith(ACCESS_PREFIX))
      .map((item) => [entityPK(item.type as EntityType, Number(item.id)), item.level as AccessLevel]),
  );
  return {
    userId,
    permissions: (profile.permissions as Record<string, string> | undefined) ?? {},
    inventoryPermissions: (profile.inventoryPermissions as Record<string, string> | undefined) ?? {},
    shares,
  };
};

const level = (value: string | undefined): PermissionLevel =>
  value === 'ENABLED' || value === 'READONLY' ? value : 'DISABLED';

/** Level of a general or demand-side cap permission; absent means DISABLED. */
export const permissionLevel = (grants: Grants, name: string): PermissionLevel => level(grants.permissions[name]);

/** Level of a supply-side (inventory) cap permission; absent means DISABLED. */
export const inventoryPermissionLevel = (grants: Grants, name: string): PermissionLevel =>
  level(grants.inventoryPermissions[name]);

export const canRead = (permission: PermissionLevel): boolean => permission !== 'DISABLED';

/** The entity and the entities whose shares cover it: a banner's campaign and advertiser, a placement's site. */
export const coveringPartitions = (entity: Entity): string[] => [
  entityPK(entity.type, entity.id),
  ...(entity.campaignId !== undefined ? [entityPK('CAMPAIGN', entity.campaignId)] : []),
  ...(entity.advertiserId !== undefined ? [entityPK('ADVERTISER', entity.advertiserId)] : []),
  ...(entity.siteId !== undefined ? [entityPK('SITE', entity.siteId)] : []),
];

export const accessLevel = (grants: Grants, entity: Entity): AccessLevel | undefined => {
  const levels = coveringPartitions(entity).map((pk) => grants.shares.get(pk));
  return levels.includes('UPDATE') ? 'UPDATE' : levels.includes('READ') ? 'READ' : undefined;
};

export const hasUpdateAccess = (grants: Grants, entity: Entity): boolean => accessLevel(grants, entity) === 'UPDATE';

export const entityFromItem = (item: Item | undefined): Entity | undefined => (item ? (item as unknown as Entity) : undefined);

export const loadEntity = async (store: TableStore, type: EntityType, id: number): Promise<Entity | undefined> =>
  entityFromItem(await store.get(entityKey(type, id)));

const LEVEL_NAME: Record<EntityType, string> = {
  ADVERTISER: 'Advertiser',
  CAMPAIGN: 'Campaign',
  BANNER: 'Banner',
  SITE: 'Site',
  PLACEMENT: 'Placement',
};

/**
 * The entity when it exists, is not deleted and the caller holds UPDATE access to it or an ancestor;
 * otherwise 404 or 403.
 */
export const requireUpdatableEntity = (grants: Grants, type: EntityType, id: number, entity: Entity | undefined): Entity => {
  if (!entity || entity.deleted) throw notFound(`${LEVEL_NAME[type]} ${id} not found`);
  if (!hasUpdateAccess(grants, entity)) throw forbidden(`No update access to ${LEVEL_NAME[type].toLowerCase()} ${id}`);
  return entity;
};

/** 403 naming the permission unless the caller holds one of the accepted levels. */
export const requirePermission = (granted: PermissionLevel, name: string, accepted: readonly PermissionLevel[]): void => {
  if (!accepted.includes(granted))
    throw forbidden(`Permission "${name}" is required${accepted.length === 1 ? '' : ' (read-only suffices)'}`, { permission: name });
};
