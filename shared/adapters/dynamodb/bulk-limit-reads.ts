import type { Entity } from '../../domain/access';
import type { EntityType } from '../../domain/levels';
import { entityPK } from '../../table/keys';
import { knownShardCount, withEveryShard } from './shard-layouts';
import { entityLimitFromItems, entityLimitKeys, type EntityLimit } from './limit-store';
import type { Item, TableStore } from './table-store';

/**
 * Entities, limits and counter items (every shard the container knows of), in one round of batched reads. Entities
 * already in hand (`known`, from the parent index) are not read again.
 */
export const loadEntityLimits = async (
  store: TableStore,
  {
    type,
    ids,
    now,
    known = new Map(),
  }: { type: EntityType; ids: readonly number[]; now: Date; known?: ReadonlyMap<number, Entity> },
): Promise<Map<number, EntityLimit>> => {
  const clock = { now: () => now };
  const keys = ids.flatMap((id) =>
    entityLimitKeys({ type, id, shards: knownShardCount(store, type, id, clock) }).filter(
      (key) => !(key.SK === 'ENTITY' && known.has(id)),
    ),
  );
  const entities = ids.map((id) => [type, id] as const);
  const items = await withEveryShard(store, entities, await store.batchGet(keys), clock);
  const byPartition = new Map<string, Item[]>();
  for (const item of items) byPartition.set(String(item.PK), [...(byPartition.get(String(item.PK)) ?? []), item]);
  return new Map(
    ids.map((id) => {
      const loaded = entityLimitFromItems(type, id, byPartition.get(entityPK(type, id)) ?? [], now);
      return [id, known.has(id) ? { ...loaded, entity: known.get(id) } : loaded];
    }),
  );
};
