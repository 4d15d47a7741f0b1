import type { Entity } from '../../domain/access';
import { entityLimitFromItems, entityLimitKeys } from './limit-store';
import { knownShardCount, withEveryShard } from './shard-layouts';
import { ACTION_ITEMS_PREFIX, actionCountersFromItem, perActionFromItem } from './per-action-store';
import { ACTION_LIMIT_PREFIX, actionCountersKey, actionSwitchKey, entityKey, entityPK } from '../../table/keys';
import { ancestorsOf, isDemandType, levelOfType, type EntityType } from '../../domain/levels';
import type { TableStore } from './table-store';
import type { EntityServingState } from '../../domain/serving/serving-decision';
import { quietTimeStart } from '../../domain/delivery/counter-state';

/** The entity and the ancestors whose limits also hold it back: banner → campaign → advertiser, placement → site. */
const servingChain = (entity: Entity): [EntityType, number][] => [
  [entity.type, entity.id],
  ...ancestorsOf(entity.type, entity).map(({ type, id }): [EntityType, number] => [type, id]),
];

/**
 * Serving state of an entity and its ancestors, in two requests at once: one batch read (entities, limits,
 * counter items) and, per entity, one query of its `ACT…` items (per-action limits, their counters, the switch).
 */
export const loadServingChain = async (store: TableStore, entity: Entity, now: Date): Promise<EntityServingState[]> => {
  const chain = servingChain(entity);
  const clock = { now: () => now };
  const [items, actionItems] = await Promise.all([
    // the entity itself is known already; its limit, its counters (every known shard) and its ancestors' are not
    store
      .batchGet(
        chain.flatMap(([type, id], index) =>
          entityLimitKeys({ type, id, shards: knownShardCount(store, type, id, clock) }).filter(
            (key) => index > 0 || key.SK !== entityKey(type, id).SK,
          ),
        ),
      )
      .then((read) => withEveryShard(store, chain, read, clock)),
    Promise.all(chain.map(([type, id]) => store.queryPartition(entityPK(type, id), ACTION_ITEMS_PREFIX))),
  ]);
  return chain.map(([type, id], index) => {
    const loaded = entityLimitFromItems(type, id, items, now);
    const own = actionItems[index]!;
    const supply = !isDemandType(type);
    const quietSince = quietTimeStart(loaded.counterState);
    return {
      entity: index === 0 ? entity : loaded.entity!,
      grid: levelOfType(type).grid,
      limit: loaded.limit,
      counters: loaded.counters,
      noConversion: {
        ...(quietSince !== undefined ? { quietSince } : {}),
        impressionsSinceConversion: loaded.counterState.impressionsSinceConversion,
      },
      perActionEnabled: supply || own.some((item) => item.SK === actionSwitchKey(type, id).SK && item.enabled === true),
      perAction: own
        .filter((item) => String(item.SK).startsWith(ACTION_LIMIT_PREFIX))
        .map(perActionFromItem)
        .map((limit) => {
          const counted = actionCountersFromItem(
            own.find((item) => item.SK === actionCountersKey(type, id, limit.actionId).SK),
            now,
          );
          return {
            actionId: limit.actionId,
            dailyConversionsLimit: limit.dailyConversionsLimit,
            totalConversionsLimit: limit.totalConversionsLimit,
            dailyConversions: counted.daily,
            totalConversions: counted.total,
          };
        }),
    };
  });
};
