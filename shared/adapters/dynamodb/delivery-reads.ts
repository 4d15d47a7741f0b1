import type { Ancestry, CounterTarget } from '../../domain/delivery/contributions';
import { targetName } from '../../domain/delivery/contributions';
import type { DeliveryEvent } from '../../domain/delivery/delivery-event';
import { actionCaps, gridCaps, type CapOnCounter } from '../../domain/delivery/limit-reached';
import { isDemandType, levelOfType } from '../../domain/levels';
import { actionLimitKey, actionSwitchKey, entityKey, itemKeyText, limitKey, type ItemKey } from '../../table/keys';
import { limitFromItem } from './limit-store';
import { perActionFromItem } from './per-action-store';
import type { Item, TableStore } from './table-store';

/** What the delivery recorder reads before it counts: where each banner and placement sits, in one batch read. */
export const loadAncestry = async (store: TableStore, events: readonly DeliveryEvent[]): Promise<Ancestry> => {
  const bannerIds = [...new Set(events.flatMap((event) => (event.bannerId !== undefined ? [event.bannerId] : [])))];
  const placementIds = [
    ...new Set(events.flatMap((event) => (event.placementId !== undefined ? [event.placementId] : []))),
  ];
  const items = await store.batchGet([
    ...bannerIds.map((id) => entityKey('BANNER', id)),
    ...placementIds.map((id) => entityKey('PLACEMENT', id)),
  ]);
  const banners = new Map<number, { campaignId: number; advertiserId: number }>();
  const placements = new Map<number, { siteId: number }>();
  for (const item of items) {
    if (item.type === 'BANNER')
      banners.set(Number(item.id), { campaignId: Number(item.campaignId), advertiserId: Number(item.advertiserId) });
    if (item.type === 'PLACEMENT') placements.set(Number(item.id), { siteId: Number(item.siteId) });
  }
  return { banners, placements };
};

const capKeys = (targets: readonly CounterTarget[]): ItemKey[] => {
  const keys = new Map<string, ItemKey>();
  const add = (key: ItemKey) => keys.set(itemKeyText(key), key);
  for (const { type, id, actionId } of targets)
    if (actionId === undefined) add(limitKey(type, id));
    else {
      add(actionLimitKey(type, id, actionId));
      if (isDemandType(type)) add(actionSwitchKey(type, id));
    }
  return [...keys.values()];
};

/**
 * The caps each counter item's writes are judged against, by target name: its limit's, or its per-action limit's
 * while the entity's switch is on; in one batch read.
 */
export const loadCounterCaps = async (
  store: TableStore,
  targets: readonly CounterTarget[],
): Promise<Map<string, CapOnCounter[]>> => {
  const items = new Map((await store.batchGet(capKeys(targets))).map((item) => [itemKeyText(item as ItemKey), item]));
  const read = (key: ItemKey): Item | undefined => items.get(itemKeyText(key));
  return new Map(
    targets.map((target) => {
      const { type, id, actionId } = target;
      if (actionId === undefined) {
        const limit = limitFromItem(read(limitKey(type, id)));
        return [targetName(target), limit ? gridCaps(levelOfType(type).grid, limit.caps) : []];
      }
      const limitItem = read(actionLimitKey(type, id, actionId));
      const switchOn = !isDemandType(type) || read(actionSwitchKey(type, id))?.enabled === true;
      return [targetName(target), limitItem && switchOn ? actionCaps(perActionFromItem(limitItem)) : []];
    }),
  );
};
