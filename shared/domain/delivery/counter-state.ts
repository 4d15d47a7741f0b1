import type { Metric, Period } from '../limits/cap-axes';
import { bucketOf, isLaterPeriod } from '../limits/periods';

/** Counters of one period, in units (see exact-units), by metric. */
export type Tally = Partial<Record<Metric, bigint>>;

/** Where a period's counters sit on a counter item: its current period, or the one it was in just before. */
export type Slot = 'current' | 'previous';

/** One period's counters on an item: the period they count in and the counters. */
export interface PeriodSlot {
  key: string;
  tally: Tally;
}

/**
 * What one counter item holds: for each period, the period its counters belong to and the counters, and the period
 * it was in just before with that period's counters (`previous`: an event near an edge counts in its own); the highest
 * delivery sequence applied per message group (exactly-once), on the item or beside it; and, on demand entities, the no-conversion state.
 */
export interface CounterState {
  /** `D#2026-11-22`, `W#2026-W47`, `M#2026-11`, `T`: the period each period's counters count in. */
  keys: Partial<Record<Period, string>>;
  counters: Partial<Record<Period, Tally>>;
  /** Per period (not the total): the period the item was in before its current one, and its counters. */
  previous?: Partial<Record<Period, PeriodSlot>>;
  /** Message group → highest sequence number applied, as fixed-width decimal text so that text order is number order. */
  applied: Record<string, string>;
  /** The item's count of the markers it holds (`applied`), once recorded (`gn`; absent on items written before). */
  inlineCount?: number;
  /** The day (since 1970) of the item's last write that put a group's marker beside it, in a marker item (`ov`). */
  overflowDay?: number;
  /** The markers read from marker items, of the groups of a write that are not in `applied`: group → marker. */
  beside?: Record<string, string>;
  /** The last conversion's instant (ms), or the last reset of the quiet time: impressions before it never count. */
  quietSince?: number;
  /** The first impression's instant (ms): when the quiet time began while no conversion came. */
  firstImpressionAt?: number;
  impressionsSinceConversion: bigint;
}

/** Since when no conversion came: the last conversion (or reset), else the first impression. */
export const quietTimeStart = (state: CounterState): number | undefined => state.quietSince ?? state.firstImpressionAt;

export const EMPTY_COUNTERS: CounterState = { keys: {}, counters: {}, applied: {}, impressionsSinceConversion: 0n };

/** The counters of each period that count at some instant; a period without any reads as 0. */
export type CurrentCounters = Partial<Record<Period, Tally>>;

/** What a reader of an item's periods needs: the current and the previous slots. */
export type HeldPeriods = Pick<CounterState, 'keys' | 'counters' | 'previous'>;

/** The item's slots of one period, current first; a slot without a key holds nothing. */
export const slotsOf = (state: HeldPeriods, period: Period): (PeriodSlot & { slot: Slot })[] => {
  const current = state.keys[period];
  const previous = state.previous?.[period];
  return [
    ...(current !== undefined ? [{ slot: 'current' as const, key: current, tally: state.counters[period] ?? {} }] : []),
    ...(previous !== undefined ? [{ slot: 'previous' as const, ...previous }] : []),
  ];
};

/** The counters an item holds of one period (`key`), in whichever slot holds it; `undefined` when neither does. */
export const countersOf = (state: HeldPeriods, period: Period, key: string): Tally | undefined =>
  slotsOf(state, period).find((slot) => slot.key === key)?.tally;

/**
 * The counters that count at an instant: per period, the slot (current or previous) that holds the instant's period;
 * a period the item holds in neither slot (it has rolled over since, or not yet) reads as 0.
 */
export const currentCounters = (state: CounterState, now: Date): CurrentCounters => {
  const current: CurrentCounters = {};
  for (const period of Object.keys(state.keys) as Period[]) {
    const tally = countersOf(state, period, bucketOf(period, now));
    if (tally && Object.keys(tally).length > 0) current[period] = tally;
  }
  return current;
};

/** The two latest of some periods of one kind, latest first: the slots an item holding all of them keeps. */
export const latestTwo = (keys: Iterable<string>): string[] => {
  const top: string[] = [];
  for (const key of new Set(keys)) {
    if (top.length < 2) top.push(key);
    else if (isLaterPeriod(key, top[1]!)) top[1] = key;
    if (top.length === 2 && isLaterPeriod(top[1]!, top[0]!)) top.reverse();
  }
  return top;
};

export const add = (into: Tally, from: Tally): Tally => {
  for (const [metric, units] of Object.entries(from) as [Metric, bigint][]) into[metric] = (into[metric] ?? 0n) + units;
  return into;
};
