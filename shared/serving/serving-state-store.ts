import type { Entity } from '../auth/authorization';
import { DEMAND_GRID, SUPPLY_GRID } from '../limits/cap-grid';
import { entityLimitFromItems, entityLimitKeys } from '../limits/limit-store';
import { DEMAND_TYPES } from '../per-action/per-action-change';
import { currentActionCounterKeys, perActionFromItem } from '../per-action/per-action-store';
import { ACTION_LIMIT_PREFIX, actionSwitchKey, entityPK, noConversionKey, type EntityType } from '../table/keys';
import type { TableStore } from '../table/table-store';
import type { EntityServingState } from './serving-decision';

/** The entity and the ancestors whose limits also hold it back: banner → campaign → advertiser, placement → site. */
export const servingChain = (entity: Entity): [EntityType, number][] => [
  [entity.type, entity.id],
  ...(entity.campaignId !== undefined ? [['CAMPAIGN', entity.campaignId] as [EntityType, number]] : []),
  ...(entity.advertiserId !== undefined ? [['ADVERTISER', entity.advertiserId] as [EntityType, number]] : []),
  ...(entity.siteId !== undefined ? [['SITE', entity.siteId] as [EntityType, number]] : []),
];

/** Serving state of an entity and its ancestors: one batch read, one query per entity for per-action limits, one batch read for their counters. */
export const loadServingChain = async (store: TableStore, entity: Entity, now: Date): Promise<EntityServingState[]> => {
  const chain = servingChain(entity);
  const [items, actionItems] = await Promise.all([
    store.batchGet(chain.flatMap(([type, id]) => [...entityLimitKeys(type, id, now), noConversionKey(type, id), actionSwitchKey(type, id)])),
    Promise.all(chain.map(([type, id]) => store.queryPartition(entityPK(type, id), ACTION_LIMIT_PREFIX))),
  ]);
  const perActionLimits = actionItems.map((list) => list.map(perActionFromItem));
  const counterKeys = chain.flatMap(([type, id], index) => perActionLimits[index]!.map((limit) => currentActionCounterKeys(type, id, limit.actionId, now)));
  const counters = await store.batchGet(counterKeys.flatMap((keys) => [keys.daily, keys.total]));
  const conversions = (pk: string, sk: string) => Number(counters.find((item) => item.PK === pk && item.SK === sk)?.conversions ?? 0);

  return chain.map(([type, id], index) => {
    const own = items.filter((item) => item.PK === entityPK(type, id));
    const loaded = entityLimitFromItems(type, id, own, now);
    const noConversion = own.find((item) => item.SK === noConversionKey(type, id).SK);
    const supply = !DEMAND_TYPES.includes(type);
    return {
      entity: loaded.entity!,
      grid: supply ? SUPPLY_GRID : DEMAND_GRID,
      limit: loaded.limit,
      buckets: loaded.buckets,
      noConversion: {
        ...(noConversion?.quietSince !== undefined ? { quietSince: Number(noConversion.quietSince) } : {}),
        impressionsSinceConversion: Number(noConversion?.impressionsSinceConversion ?? 0),
      },
      perActionEnabled: supply || own.some((item) => item.SK === 'ACTION_SWITCH' && item.enabled === true),
      perAction: perActionLimits[index]!.map((limit) => {
        const keys = currentActionCounterKeys(type, id, limit.actionId, now);
        return {
          actionId: limit.actionId,
          dailyConversionsLimit: limit.dailyConversionsLimit,
          totalConversionsLimit: limit.totalConversionsLimit,
          dailyConversions: conversions(keys.daily.PK, keys.daily.SK),
          totalConversions: conversions(keys.total.PK, keys.total.SK),
        };
      }),
    };
  });
};

