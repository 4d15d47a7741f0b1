import type { Metric, Period } from '../limits/cap-axes';
import { bucketOf } from '../limits/periods';

/** Counters of one period, in units (see exact-units), by metric. */
export type Tally = Partial<Record<Metric, bigint>>;

/**
 * What one counter item holds: for each period, the period its counters belong to and the counters; the highest
 * delivery sequence applied per message group (exactly-once), on the item or beside it; and, on demand entities, the no-conversion state.
 */
export interface CounterState {
  /** `D#2026-11-22`, `W#2026-W47`, `M#2026-11`, `T`: the period each period's counters count in. */
  keys: Partial<Record<Period, string>>;
  counters: Partial<Record<Period, Tally>>;
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

/** The counters that count now: a period whose stored key is not the current one reads as 0 (it has rolled over). */
export const currentCounters = (state: CounterState, now: Date): CurrentCounters => {
  const current: CurrentCounters = {};
  for (const [period, tally] of Object.entries(state.counters) as [Period, Tally][])
    if (state.keys[period] === bucketOf(period, now)) current[period] = tally;
  return current;
};

export const add = (into: Tally, from: Tally): Tally => {
  for (const [metric, units] of Object.entries(from) as [Metric, bigint][]) into[metric] = (into[metric] ?? 0n) + units;
  return into;
};
