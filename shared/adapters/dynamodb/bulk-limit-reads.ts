import type { EntityType } from '../../domain/levels';
import { entityPK } from '../../table/keys';
import { entityLimitFromItems, entityLimitKeys, type EntityLimit } from './limit-store';
import type { Item, TableStore } from './table-store';

/**
 * Entities, limits and counter items, in one round of batched reads. Entity items already in hand (from the
 * parent index) are not read again.
 */
export const loadEntityLimits = async (
  store: TableStore,
  type: EntityType,
  ids: readonly number[],
  now: Date,
  known: ReadonlyMap<number, Item> = new Map(),
): Promise<Map<number, EntityLimit>> => {
  const items = await store.batchGet(
    ids.flatMap((id) => entityLimitKeys(type, id).filter((key) => !(key.SK === 'ENTITY' && known.has(id)))),
  );
  items.push(...ids.flatMap((id) => (known.has(id) ? [known.get(id)!] : [])));
  const byPartition = new Map<string, Item[]>();
  for (const item of items) byPartition.set(String(item.PK), [...(byPartition.get(String(item.PK)) ?? []), item]);
  return new Map(ids.map((id) => [id, entityLimitFromItems(type, id, byPartition.get(entityPK(type, id)) ?? [], now)]));
};
