import { BatchWriteItemCommand, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { plainItem } from '../../shared/adapters/dynamodb/attribute-values';
import {
  counterAttribute,
  keyAttribute,
  markerAttribute,
  FIRST_IMPRESSION_ATTRIBUTE,
  QUIET_IMPRESSIONS_ATTRIBUTE,
  QUIET_SINCE_ATTRIBUTE,
} from '../../shared/adapters/dynamodb/counter-attributes';
import type { Item } from '../../shared/adapters/dynamodb/table-store';
import { isGroupMarkerItem } from '../../shared/adapters/dynamodb/group-marker-items';
import { GROUP_MARKER_PREFIX } from '../../shared/table/keys';
import type { LocalService } from '../../infra/local/local-service';
import { MODEL_PERIODS, type ModelPeriod } from '../model/calendar';
import type { Slot } from '../../shared/domain/delivery/counter-state';
import { periodOrdinal } from '../../shared/domain/limits/periods';
import { millisOf, noConversionState, type ModelItem, type ModelMetric, type ModelSlots } from '../model/counter-model';

/**
 * A counter item as both sides are compared: per period and slot (`daily`, `previous daily`) its key and its non-zero
 * counters as decimal text.
 */
export interface CounterView {
  periods: Record<string, { key: string; counts: Record<string, string> }>;
  noConversion?: { quietSince: number; impressions: string };
}

const METRICS: readonly ModelMetric[] = ['impressions', 'clicks', 'conversions', 'opportunities', 'budget', 'requests'];

/**
 * Every counter item of the service's table (entity counters, their shards, per-action counters) and the marker
 * items beside them (`GM#…`), by `PK/SK`.
 */
export const storedCounterItems = async (service: LocalService): Promise<Map<string, Item>> => {
  const { client, tableName } = service.dependencies.store;
  const items = new Map<string, Item>();
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: tableName,
        ConsistentRead: true,
        FilterExpression: 'begins_with(SK, :counters) OR begins_with(SK, :actions) OR begins_with(SK, :markers)',
        ExpressionAttributeValues: {
          ':counters': { S: 'COUNTERS' },
          ':actions': { S: 'ACTCTR#' },
          ':markers': { S: GROUP_MARKER_PREFIX },
        },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const stored of page.Items ?? []) {
      const item = plainItem(stored);
      items.set(`${String(item.PK)}/${String(item.SK)}`, item);
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
};

/**
 * The marker items (`GM#<counter SK>#<group>`) whose group also has its marker on the counter item (`~<group>`): a
 * group's marker is in one place, or a message could be applied once from each. Groups here contain no `#`.
 */
export const markersInlineAndBeside = (stored: ReadonlyMap<string, Item>): string[] =>
  [...stored.values()].flatMap(({ PK, SK }) => {
    const key = String(SK);
    if (!isGroupMarkerItem(key)) return [];
    const split = key.lastIndexOf('#');
    const counterItem = stored.get(`${String(PK)}/${key.slice(GROUP_MARKER_PREFIX.length, split)}`);
    return counterItem?.[markerAttribute(key.slice(split + 1))] !== undefined ? [`${String(PK)}/${key}`] : [];
  });

/** Deletes the given counter items, so that the next case starts from none. */
export const deleteCounterItems = async (service: LocalService, items: Iterable<Item>): Promise<void> => {
  const { client, tableName } = service.dependencies.store;
  const keys = [...items].map((item) => ({ PK: { S: String(item.PK) }, SK: { S: String(item.SK) } }));
  for (let start = 0; start < keys.length; start += 25)
    await client.send(
      new BatchWriteItemCommand({
        RequestItems: { [tableName]: keys.slice(start, start + 25).map((Key) => ({ DeleteRequest: { Key } })) },
      }),
    );
};

const unitsText = (metric: ModelMetric, value: unknown): string =>
  String(metric === 'budget' ? millisOf(String(value)) : BigInt(String(value)));

/** A view's name of a period's slot: `daily`, and `previous daily` for the period before it. */
const slotName = (period: ModelPeriod, slot: Slot): string => (slot === 'current' ? period : `previous ${period}`);
const SLOTS: readonly Slot[] = ['current', 'previous'];

export const storedView = (item: Item): CounterView => {
  const periods: CounterView['periods'] = {};
  for (const period of MODEL_PERIODS)
    for (const slot of SLOTS) {
      const counts: Record<string, string> = {};
      for (const metric of METRICS) {
        const value = item[counterAttribute(period, metric, slot)];
        if (value !== undefined && unitsText(metric, value) !== '0') counts[metric] = unitsText(metric, value);
      }
      const key =
        period !== 'total'
          ? item[keyAttribute(period, slot)]
          : slot === 'current' && Object.keys(counts).length > 0
            ? 'T'
            : undefined;
      if (key !== undefined) periods[slotName(period, slot)] = { key: String(key), counts };
    }
  const quietSince = item[QUIET_SINCE_ATTRIBUTE] ?? item[FIRST_IMPRESSION_ATTRIBUTE];
  const noConversion =
    quietSince !== undefined
      ? { quietSince: Number(String(quietSince)), impressions: String(item[QUIET_IMPRESSIONS_ATTRIBUTE] ?? 0) }
      : undefined;
  return { periods, ...(noConversion ? { noConversion } : {}) };
};

/**
 * The model's view of an item. The no-conversion count is a range when an impression ties with the last
 * conversion: a stored count inside it reads as that count, one outside as the range. Out of time order (`orderly`
 * false) it is a bound when a conversion came (see `noConversionState`): from 0 to `most`.
 */
export const modelView = (item: ModelItem, orderly: boolean, stored?: CounterView): CounterView => {
  const periods: CounterView['periods'] = {};
  for (const [period, slots] of Object.entries(item.periods) as [ModelPeriod, ModelSlots][])
    for (const slot of SLOTS) {
      const held = slots[slot];
      const nonZero = Object.entries(held?.counts ?? {}).filter(([, units]) => units !== 0n);
      // the total has no key of its own: all its counters at 0 (reset) look like none
      if (held && (period !== 'total' || nonZero.length > 0))
        periods[slotName(period, slot)] = {
          key: held.key,
          counts: Object.fromEntries(nonZero.map(([metric, units]) => [metric, String(units)])),
        };
    }
  const state = noConversionState(item);
  if (!state) return { periods };
  const { most } = state.impressions;
  const least = orderly || !state.conversions ? state.impressions.least : 0n;
  const storedCount = stored?.noConversion?.impressions;
  const inRange = storedCount !== undefined && BigInt(storedCount) >= least && BigInt(storedCount) <= most;
  const impressions = inRange ? storedCount : least === most ? String(least) : `${least} to ${most}`;
  return { periods, noConversion: { quietSince: state.quietSince, impressions } };
};

/** What a shard holds besides its key and, on shard 0, the shard count: nothing means no counters yet. */
const holdsCounters = (item: Item): boolean => Object.keys(item).some((name) => !['PK', 'SK', 'shards'].includes(name));

/**
 * The stored counters as one view per counter item of the model (`PK/COUNTERS`, `PK/ACTCTR#…`): an entity's
 * shards summed as the service's reads define it, written out here on its own: per period the two latest periods
 * any shard holds (in either slot), and the sum of the counters the shards hold of each. The no-conversion state is compared where one shard
 * holds it (across shards it is a bound: `sumShardStates`); `spread` names the entities where it is not.
 */
export const summedViews = (stored: ReadonlyMap<string, Item>) => {
  const byItem = new Map<string, CounterView[]>();
  for (const [name, item] of stored) {
    if (!holdsCounters(item) || isGroupMarkerItem(String(item.SK))) continue;
    const merged = name.replace(/\/COUNTERS#\d+$/, '/COUNTERS');
    byItem.set(merged, [...(byItem.get(merged) ?? []), storedView(item)]);
  }
  const spread = new Set<string>();
  const views = new Map<string, CounterView>();
  for (const [name, shards] of byItem) {
    const periods: CounterView['periods'] = {};
    for (const period of MODEL_PERIODS) {
      const held = shards.flatMap((view) => SLOTS.flatMap((slot) => view.periods[slotName(period, slot)] ?? []));
      const keys = [...new Set(held.map(({ key }) => key))].sort((a, b) => periodOrdinal(b) - periodOrdinal(a));
      keys.slice(0, 2).forEach((key, index) => {
        const counts: Record<string, bigint> = {};
        for (const slot of held.filter((candidate) => candidate.key === key))
          for (const [metric, units] of Object.entries(slot.counts))
            counts[metric] = (counts[metric] ?? 0n) + BigInt(units);
        const text = Object.fromEntries(Object.entries(counts).map(([metric, units]) => [metric, String(units)]));
        periods[slotName(period, SLOTS[index]!)] = { key, counts: text };
      });
    }
    const holders = shards.filter((view) => view.noConversion);
    if (holders.length > 1) spread.add(name);
    views.set(name, { periods, ...(holders.length === 1 ? { noConversion: holders[0]!.noConversion! } : {}) });
  }
  return { views, spread };
};
