import { EMPTY_COUNTERS, type CounterState, type Slot, type Tally } from '../../domain/delivery/counter-state';
import { unitScale, unitsFromText } from '../../domain/delivery/exact-units';
import type { Metric, Period } from '../../domain/limits/cap-axes';
import type { Item } from './table-store';
import {
  counterAttribute,
  keyAttribute,
  MARKER_PREFIX,
  markerAttribute,
  QUIET_IMPRESSIONS_ATTRIBUTE as QUIET_IMPRESSIONS,
  QUIET_SINCE_ATTRIBUTE as QUIET_SINCE,
  FIRST_IMPRESSION_ATTRIBUTE as FIRST_IMPRESSION,
  INLINE_COUNT_ATTRIBUTE,
  OVERFLOW_DAY_ATTRIBUTE,
} from './counter-attributes';
import { markerFromBytes } from './marker-bytes';

const TOTAL_KEY = 'T';

/** Decimal text of a stored number, whichever way the store handed it over (a number, or a NumberValue). */
const numberText = (value: unknown): string | undefined =>
  value === undefined || value === null ? undefined : String(value);

/** Units of a stored counter; a whole number the store handed over as a JavaScript number skips the decimal text. */
const storedUnits = (value: unknown, scale: bigint): bigint | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
    ? BigInt(value) * scale
    : value === undefined || value === null
      ? undefined
      : unitsFromText(String(value), scale);

/** The counters of one slot of a period, as stored: a counter not stored is left out. */
const storedTally = (item: Item, period: Period, slot: Slot, metrics: readonly Metric[]): Tally => {
  const tally: Tally = {};
  for (const metric of metrics) {
    const units = storedUnits(item[counterAttribute(period, metric, slot)], unitScale(metric));
    if (units !== undefined) tally[metric] = units;
  }
  return tally;
};

/**
 * The markers of the message groups a counter item applied, by group. Only a write needs them (a read needs the
 * counters alone), and decoding them is most of the cost of reading an item that holds many.
 */
export const appliedMarkers = (item: Item | undefined): Record<string, string> => {
  const applied: Record<string, string> = {};
  for (const [name, value] of Object.entries(item ?? {})) {
    const marker = name.startsWith(MARKER_PREFIX) ? markerFromBytes(value) : undefined;
    if (marker !== undefined) applied[name.slice(MARKER_PREFIX.length)] = marker;
  }
  return applied;
};

/** Where a counter item's markers stand: those it holds, their count (`gn`) and the day of its last beside write. */
export const inlineMarkerState = (
  item: Item | undefined,
): Pick<CounterState, 'applied' | 'inlineCount' | 'overflowDay'> => {
  const inlineCount = Number(numberText(item?.[INLINE_COUNT_ATTRIBUTE]));
  const overflowDay = Number(numberText(item?.[OVERFLOW_DAY_ATTRIBUTE]));
  return {
    applied: appliedMarkers(item),
    ...(Number.isSafeInteger(inlineCount) ? { inlineCount } : {}),
    ...(Number.isSafeInteger(overflowDay) ? { overflowDay } : {}),
  };
};

/** A message group's marker on a counter item, if it has one: the one way to ask for a single group's. */
export const groupMarkerOn = (item: Item | undefined, group: string): string | undefined => {
  const stored = item?.[markerAttribute(group)];
  return stored === undefined ? undefined : markerFromBytes(stored);
};

/**
 * A counter item's counters and no-conversion state as the domain sees them, without its markers (`applied` is
 * empty: see `appliedMarkers`); an absent item is empty. Never fails on what it finds.
 */
export const counterState = (
  item: Item | undefined,
  periods: readonly Period[],
  metrics: readonly Metric[],
): CounterState => {
  if (!item) return EMPTY_COUNTERS;
  const state: CounterState = { keys: {}, counters: {}, applied: {}, impressionsSinceConversion: 0n };
  for (const period of periods) {
    const key = period === 'total' ? TOTAL_KEY : item[keyAttribute(period)];
    if (typeof key === 'string') state.keys[period] = key;
    const tally = storedTally(item, period, 'current', metrics);
    if (Object.keys(tally).length > 0) state.counters[period] = tally;
    // an item written before it kept its previous period has none: it reads as it did
    const previousKey = period === 'total' ? undefined : item[keyAttribute(period, 'previous')];
    if (typeof previousKey === 'string')
      (state.previous ??= {})[period] = { key: previousKey, tally: storedTally(item, period, 'previous', metrics) };
  }
  const quietSince = Number(numberText(item[QUIET_SINCE]));
  if (Number.isFinite(quietSince)) state.quietSince = quietSince;
  const firstImpressionAt = Number(numberText(item[FIRST_IMPRESSION]));
  if (Number.isFinite(firstImpressionAt)) state.firstImpressionAt = firstImpressionAt;
  state.impressionsSinceConversion = storedUnits(item[QUIET_IMPRESSIONS], 1n) ?? 0n;
  return state;
};
