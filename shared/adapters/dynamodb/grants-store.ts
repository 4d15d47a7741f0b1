import type { Entity, Grants } from '../../domain/access';
import type { EntityType } from '../../domain/levels';
import type { AccessLevel } from '../../domain/permissions';
import { ACCESS_PREFIX, entityKey, entityPK, userPK } from '../../table/keys';
import type { Clock } from '../../ports/clock';
import { WarmCache } from '../../support/warm-cache';
import type { Item, TableStore } from './table-store';

/** Grants from the items of a user's partition: its profile's permissions and its shares. */
const grantsFromItems = (userId: number, items: readonly Item[]): Grants => {
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

/** Profile and shares of a user in one query on the user's partition. */
export const loadGrants = async (store: TableStore, userId: number): Promise<Grants> =>
  grantsFromItems(userId, await store.queryPartition(userPK(userId)));

const warmGrants = new WarmCache<Grants>();

/** A caller's grants as this container last read them, at most WARM_CACHE_TTL_MS ago. */
export const grantsOf = (ports: { store: TableStore; clock: Clock }, userId: number): Promise<Grants> =>
  warmGrants.through(`${ports.store.tableName}|${userId}`, ports.clock, () => loadGrants(ports.store, userId));

/** A webhook subscription's owner as deliveries judge it: its grants, and whether its account is still active. */
export interface SubscriptionOwner {
  grants: Grants;
  /** False for an account deactivated or deleted: none of its subscriptions may hear anything. */
  active: boolean;
}

const warmOwners = new WarmCache<SubscriptionOwner>();

/**
 * The owner as this container last read it, at most WARM_CACHE_TTL_MS ago: a deactivated account stops hearing
 * within the bound every other credential of it stops working in.
 */
export const ownerOf = (ports: { store: TableStore; clock: Clock }, userId: number): Promise<SubscriptionOwner> =>
  warmOwners.through(`${ports.store.tableName}|${userId}`, ports.clock, async () => {
    const items = await ports.store.queryPartition(userPK(userId));
    const profile = items.find((item) => item.SK === 'PROFILE');
    return { grants: grantsFromItems(userId, items), active: profile?.active === true };
  });

export const entityFromItem = (item: Item | undefined): Entity | undefined =>
  item ? (item as unknown as Entity) : undefined;

export const loadEntity = async (store: TableStore, type: EntityType, id: number): Promise<Entity | undefined> =>
  entityFromItem(await store.get(entityKey(type, id)));
