import { ancestorsOf, entityName, levelOfType, type EntityType } from './levels';
import type { AccessLevel, PermissionLevel } from './permissions';

/** What a user may do: permission levels by name and shares by entity name (`CAMPAIGN#100`). */
export interface Grants {
  userId: number;
  permissions: Readonly<Record<string, string>>;
  inventoryPermissions: Readonly<Record<string, string>>;
  shares: ReadonlyMap<string, AccessLevel>;
}

/** The stored entity, with its ancestors' ids denormalised by the catalog importer. */
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

/** A check's answer: allowed, or the permission that is missing. Handlers turn a refusal into a 403. */
export type PermissionDecision = { allowed: true } | { allowed: false; permission: string; readOnlySuffices: boolean };

/** Whether an operation may touch an entity: it must exist, not be deleted, and be shared with UPDATE access. */
export type EntityDecision =
  { allowed: true; entity: Entity } | { allowed: false; reason: 'notFound' | 'noAccess'; displayName: string };

const level = (value: string | undefined): PermissionLevel =>
  value === 'ENABLED' || value === 'READONLY' ? value : 'DISABLED';

/** Level of a general or demand-side cap permission; absent means DISABLED. */
export const permissionLevel = (grants: Grants, name: string): PermissionLevel => level(grants.permissions[name]);

/** Level of a supply-side (inventory) cap permission; absent means DISABLED. */
export const inventoryPermissionLevel = (grants: Grants, name: string): PermissionLevel =>
  level(grants.inventoryPermissions[name]);

/** Allowed when the caller holds one of the accepted levels of the permission. */
export const permissionDecision = (
  granted: PermissionLevel,
  permission: string,
  accepted: readonly PermissionLevel[],
): PermissionDecision =>
  accepted.includes(granted)
    ? { allowed: true }
    : { allowed: false, permission, readOnlySuffices: accepted.length > 1 };

/** The entity and its ancestors: a share on any of them covers it. */
const coveringEntities = (entity: Entity): string[] => [
  entityName(entity.type, entity.id),
  ...ancestorsOf(entity.type, entity).map((ancestor) => entityName(ancestor.type, ancestor.id)),
];

export const accessLevel = (grants: Grants, entity: Entity): AccessLevel | undefined => {
  const levels = coveringEntities(entity).map((name) => grants.shares.get(name));
  return levels.includes('UPDATE') ? 'UPDATE' : levels.includes('READ') ? 'READ' : undefined;
};

export const hasUpdateAccess = (grants: Grants, entity: Entity): boolean => accessLevel(grants, entity) === 'UPDATE';

/** Not found when absent or deleted; refused without UPDATE access to the entity or an ancestor. */
export const updatableEntity = (grants: Grants, type: EntityType, entity: Entity | undefined): EntityDecision => {
  const { displayName } = levelOfType(type);
  if (!entity || entity.deleted) return { allowed: false, reason: 'notFound', displayName };
  if (!hasUpdateAccess(grants, entity)) return { allowed: false, reason: 'noAccess', displayName };
  return { allowed: true, entity };
};
