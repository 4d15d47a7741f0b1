import type { Entity } from '../../domain/access';
import { entityLimitFromItems, entityLimitKeys } from './limit-store';
import { loadActionCounters, perActionFromItem } from './per-action-store';
import { ACTION_LIMIT_PREFIX, actionSwitchKey, entityPK, noConversionKey } from '../../table/keys';
import { ancestorsOf, isDemandType, levelOfType, type EntityType } from '../../domain/levels';
import type { TableStore } from './table-store';
import type { EntityServingState } from '../../domain/serving/serving-decision';

/** The entity and the ancestors whose limits also hold it back: banner → campaign → advertiser, placement → site. */
const servingChain = (entity: Entity): [EntityType, number][] => [
  [entity.type, entity.id],
  ...ancestorsOf(entity.type, entity).map(({ type, id }): [EntityType, number] => [type, id]),
];

/** Serving state of an entity and its ancestors: one batch read, one query per entity for per-action limits, one batch read for their counters. */
export const loadServingChain = async (store: TableStore, entity: Entity, now: Date): Promise<EntityServingState[]> => {
  const chain = servingChain(entity);
  const [items, actionItems] = await Promise.all([
    store.batchGet(
      chain.flatMap(([type, id]) => [
        ...entityLimitKeys(type, id, now),
        noConversionKey(type, id),
        actionSwitchKey(type, id),
      ]),
    ),
    Promise.all(chain.map(([type, id]) => store.queryPartition(entityPK(type, id), ACTION_LIMIT_PREFIX))),
  ]);
  const perActionLimits = actionItems.map((list) => list.map(perActionFromItem));
  const targets = chain.flatMap(([type, id], index) =>
    perActionLimits[index]!.map((limit) => ({ type, id, actionId: limit.actionId })),
  );
  const counters = await loadActionCounters(store, targets, now);
  const countersOf = (type: EntityType, id: number, actionId: number) =>
    counters[targets.findIndex((target) => target.type === type && target.id === id && target.actionId === actionId)]!;

  return chain.map(([type, id], index) => {
    const own = items.filter((item) => item.PK === entityPK(type, id));
    const loaded = entityLimitFromItems(type, id, own, now);
    const noConversion = own.find((item) => item.SK === noConversionKey(type, id).SK);
    const supply = !isDemandType(type);
    return {
      entity: loaded.entity!,
      grid: levelOfType(type).grid,
      limit: loaded.limit,
      buckets: loaded.buckets,
      noConversion: {
        ...(noConversion?.quietSince !== undefined ? { quietSince: Number(noConversion.quietSince) } : {}),
        impressionsSinceConversion: Number(noConversion?.impressionsSinceConversion ?? 0),
      },
      perActionEnabled: supply || own.some((item) => item.SK === 'ACTION_SWITCH' && item.enabled === true),
      perAction: perActionLimits[index]!.map((limit) => {
        const counted = countersOf(type, id, limit.actionId);
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
