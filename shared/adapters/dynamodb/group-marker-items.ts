import type { CounterState } from '../../domain/delivery/counter-state';
import { GROUP_MARKER_PREFIX, groupMarkerKey, itemKeyText, type ItemKey } from '../../table/keys';
import { BESIDE_MARKER_ATTRIBUTE } from './counter-attributes';
import { inlineMarkerState } from './counter-item-state';
import { markerFromBytes } from './marker-bytes';
import type { Item, TableStore } from './table-store';

/** Whether an item is a group's marker kept beside a counter item (it has nothing to tell the stream's consumer). */
export const isGroupMarkerItem = (sortKey: string): boolean => sortKey.startsWith(GROUP_MARKER_PREFIX);

/** Items read, by the text of their key. */
const byKeyText = (items: readonly Item[]): ReadonlyMap<string, Item> =>
  new Map(items.map((item) => [itemKeyText({ PK: String(item.PK), SK: String(item.SK) }), item]));

/** The markers of marker items read, by group: only the groups asked for, only markers this codec wrote. */
const besideMarkers = (counterItem: ItemKey, groups: readonly string[], byKey: ReadonlyMap<string, Item>) => {
  const beside: Record<string, string> = {};
  for (const group of groups) {
    const marker = markerFromBytes(
      byKey.get(itemKeyText(groupMarkerKey(counterItem, group)))?.[BESIDE_MARKER_ATTRIBUTE],
    );
    if (marker !== undefined) beside[group] = marker;
  }
  return beside;
};

/** A counter item's markers as a write plans from them: its own, and, strongly read, the groups' beside it. */
export type MarkersRead = Pick<CounterState, 'applied' | 'inlineCount' | 'overflowDay' | 'beside'>;

/**
 * What a write plans its groups' markers from, after a condition failed or before the first write of a message
 * delivered again: the counter item (as DynamoDB returned it with a failed UpdateItem, otherwise read here) and the
 * marker items of the groups it does not hold, in one strongly consistent BatchGetItem. Answers the counter item too.
 */
export const readMarkersOf = async (
  store: TableStore,
  counterItem: ItemKey,
  groups: readonly string[],
  returned: { item: Item | undefined } | undefined,
): Promise<{ item: Item | undefined; markers: MarkersRead }> => {
  const returnedMarkers = returned && inlineMarkerState(returned.item);
  const beside = groups.filter((group) => returnedMarkers?.applied[group] === undefined);
  const keys = [...(returned ? [] : [counterItem]), ...beside.map((group) => groupMarkerKey(counterItem, group))];
  const items = keys.length > 0 ? await store.batchGet(keys) : [];
  const item = returned
    ? returned.item
    : items.find((read) => read.PK === counterItem.PK && read.SK === counterItem.SK);
  const markers = returnedMarkers ?? inlineMarkerState(item);
  return { item, markers: { ...markers, beside: besideMarkers(counterItem, beside, byKeyText(items)) } };
};

/**
 * Per group, the highest marker it has on any of the counter items (the shards of an entity), on the item or beside
 * it, in one strongly consistent batch read (none: left out): the floors a shard n ≥ 1 takes.
 */
export const highestGroupMarkers = async (
  store: TableStore,
  counterItems: readonly ItemKey[],
  groups: readonly string[],
): Promise<Record<string, string>> => {
  const items = await store.batchGet([
    ...counterItems,
    ...counterItems.flatMap((key) => groups.map((group) => groupMarkerKey(key, group))),
  ]);
  const byKey = byKeyText(items);
  const floors: Record<string, string> = {};
  for (const key of counterItems) {
    const { applied } = inlineMarkerState(byKey.get(itemKeyText(key)));
    const beside = besideMarkers(key, groups, byKey);
    for (const group of groups) {
      const marker = applied[group] ?? beside[group];
      if (marker !== undefined && (floors[group] === undefined || marker > floors[group])) floors[group] = marker;
    }
  }
  return floors;
};
