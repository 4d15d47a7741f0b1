import type { Metric, Period } from '../limits/metrics';
import { bucketOf } from '../limits/periods';
import type { SlotValue } from './group-slots';

/** Counters of one period, in units (see exact-units), by metric. */
export type Tally = Partial<Record<Metric, bigint>>;

/**
 * What one counter item holds: for each period, the period its counters belong to and the counters; the highest
 * delivery sequence applied per message group (exactly-once); and, on demand entities, the no-conversion state.
 */
export interface CounterState {
  /** `D#2026-11-22`, `W#2026-W47`, `M#2026-11`, `T`: the period each period's counters count in. */
  keys: Partial<Record<Period, string>>;
  counters: Partial<Record<Period, Tally>>;
  /**
   * Message group → its marker (the highest sequence number applied, as fixed-width decimal text so that text order
   * is number order, and the day): from the slots, and from the marker items beside the item when they were read.
   */
  applied: Record<string, string>;
  /** The item's group slots (see `group-slots.ts`), by slot. */
  slots?: Record<number, SlotValue>;
  /** Per slot, the last day (since 1970) a group of it was written beside the item, in its marker item. */
  overflowDays?: Record<number, number>;
  /** Whether `applied` holds the markers of the marker items beside the item too (they were read). */
  itemMarkersRead?: boolean;
  quietSince?: number;
  impressionsSinceConversion: bigint;
}

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
