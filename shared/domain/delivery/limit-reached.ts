import { entityName, type EntityType } from '../levels';
import type { CapGrid } from '../limits/cap-grid';
import type { Metric, Period } from '../limits/cap-axes';
import { countersOf, type PeriodSlot, type Tally } from './counter-state';
import { ExactNumber, unitScale, unitsFromCap } from './exact-units';

/** Told at least once when a write makes a counter reach its cap (counter ≥ cap > 0); `id` tells repeats apart. */
export interface LimitReached {
  /**
   * The crossing's identity, the same on every delivery of it: `<TYPE>#<id>[/ACTION#<actionId>]/<cap>=<value>/<period>`,
   * with `/reset@<ms>` when the counter item was reset before (a crossing after a reset is a new one).
   */
  id: string;
  entity: string;
  entityType: EntityType;
  entityId: number;
  /** Cap name, e.g. `dailyImpressionsLimit`, or `dailyConversionsLimit` of a per-action limit. */
  cap: string;
  capValue: number;
  counter: ExactNumber;
  actionId?: number;
  /** The period the counter counts in: `D#2026-11-22`, `W#2026-W47`, `M#2026-11`, `T`. */
  bucket: string;
  at: string;
}

/** A cap as a write sees it: which counter it caps and its value (0: no cap). */
export interface CapOnCounter {
  name: string;
  period: Period;
  metric: Metric;
  value: number;
}

/**
 * A counter item as one image of the table's stream holds it (or, for a sharded entity, the sum of its shards):
 * the period each period's counters count in (`T` for the total), the counters, and when it was last reset.
 */
export interface CounterSnapshot {
  keys: Partial<Record<Period, string>>;
  counters: Partial<Record<Period, Tally>>;
  /** The period each period's counters were in before their current one, and its counters. */
  previous?: Partial<Record<Period, PeriodSlot>>;
  resetAt?: number;
}

/** A cap is crossed by this write when the counter was below it before and is at or above it now. */
export const crosses = (cap: bigint, before: bigint, after: bigint): boolean =>
  cap > 0n && before < cap && after >= cap;

/** The caps of a limit record on one side's grid, as writes see them. */
export const gridCaps = (grid: CapGrid, caps: Readonly<Record<string, number>>): CapOnCounter[] =>
  grid.caps.map((cap) => ({ name: cap.name, period: cap.period, metric: cap.metric, value: caps[cap.name] ?? 0 }));

/** The two caps of a per-action limit. */
export const actionCaps = (limit: { dailyConversionsLimit: number; totalConversionsLimit: number }): CapOnCounter[] => [
  { name: 'dailyConversionsLimit', period: 'daily', metric: 'conversions', value: limit.dailyConversionsLimit },
  { name: 'totalConversionsLimit', period: 'total', metric: 'conversions', value: limit.totalConversionsLimit },
];

/** A counter of one period in a snapshot, in either slot; a period it holds in neither slot reads 0. */
const counterIn = (snapshot: CounterSnapshot | undefined, period: Period, key: string, metric: Metric): bigint =>
  (snapshot && countersOf(snapshot, period, key)?.[metric]) ?? 0n;

/** The periods a snapshot holds of a cap's period: its current one and the one before. */
const keysOf = (snapshot: CounterSnapshot, period: Period): string[] =>
  [snapshot.keys[period], snapshot.previous?.[period]?.key].filter((key) => key !== undefined);

export const crossingId = (
  target: { type: EntityType; id: number; actionId?: number },
  cap: CapOnCounter,
  bucket: string,
  resetAt: number | undefined,
): string =>
  [
    entityName(target.type, target.id),
    ...(target.actionId !== undefined ? [`ACTION#${target.actionId}`] : []),
    `${cap.name}=${cap.value}`,
    bucket,
    ...(resetAt !== undefined ? [`reset@${resetAt}`] : []),
  ].join('/');

/** A counter item before a write (none: the write created it) and after it. */
export interface WriteImages {
  before: CounterSnapshot | undefined;
  after: CounterSnapshot;
}

/**
 * The LimitReached events of one committed counter write, decided from the item before and after it and the caps
 * the write was judged against (stored with it). A period the write moved to counts from 0; a write that only
 * lowered counters (a reset) or changed nothing crosses nothing. The same two snapshots always give the same
 * events with the same ids, so a stream record handed over again is told again under the same id. Pure.
 */
export const limitCrossings = (
  target: { type: EntityType; id: number; actionId?: number },
  caps: readonly CapOnCounter[],
  { before, after }: WriteImages,
  at: Date,
): LimitReached[] =>
  caps.flatMap((cap) =>
    keysOf(after, cap.period).flatMap((key) => {
      const scale = unitScale(cap.metric);
      const afterUnits = counterIn(after, cap.period, key, cap.metric);
      if (!crosses(unitsFromCap(cap.value, scale), counterIn(before, cap.period, key, cap.metric), afterUnits))
        return [];
      return [
        {
          id: crossingId(target, cap, key, after.resetAt),
          entity: entityName(target.type, target.id),
          entityType: target.type,
          entityId: target.id,
          cap: cap.name,
          capValue: cap.value,
          counter: ExactNumber.of(afterUnits, scale),
          ...(target.actionId !== undefined ? { actionId: target.actionId } : {}),
          bucket: key,
          at: at.toISOString(),
        },
      ];
    }),
  );

/** The periods of a cap's counter a write raised (of the two the item holds after it). */
const raisedKeys = (cap: CapOnCounter, before: CounterSnapshot | undefined, after: CounterSnapshot): string[] =>
  cap.value > 0
    ? keysOf(after, cap.period).filter(
        (key) => counterIn(after, cap.period, key, cap.metric) > counterIn(before, cap.period, key, cap.metric),
      )
    : [];

const raises = (cap: CapOnCounter, before: CounterSnapshot | undefined, after: CounterSnapshot): boolean =>
  raisedKeys(cap, before, after).length > 0;

/** Whether a write raised a counter one of its set caps is on: only such a write can make a sum cross. Pure. */
export const raisesCappedCounter = (
  caps: readonly CapOnCounter[],
  before: CounterSnapshot | undefined,
  after: CounterSnapshot,
): boolean => caps.some((cap) => raises(cap, before, after));

/**
 * The LimitReached events of one shard's write of a sharded entity, decided on the sum of its shards read after
 * the write. One shard's images cannot tell whether the sum crossed (two shards crossing at once each see the
 * other applied), so every write that raised a capped counter in a period asks: is the sum in that period at or
 * above the cap? The events are those crossings, with the identity an unsharded entity's would have (the latest
 * reset of any shard); the caller tells each once per id, as far as it can (see the stream adapter). Pure.
 */
export const crossingsOnSum = (
  target: { type: EntityType; id: number },
  caps: readonly CapOnCounter[],
  { before, after, summed }: WriteImages & { summed: CounterSnapshot },
  at: Date,
): LimitReached[] =>
  caps.flatMap((cap) =>
    raisedKeys(cap, before, after).flatMap((key) => {
      if (!keysOf(summed, cap.period).includes(key)) return [];
      const scale = unitScale(cap.metric);
      const sum = counterIn(summed, cap.period, key, cap.metric);
      const capUnits = unitsFromCap(cap.value, scale);
      if (capUnits <= 0n || sum < capUnits) return [];
      return [
        {
          id: crossingId(target, cap, key, summed.resetAt),
          entity: entityName(target.type, target.id),
          entityType: target.type,
          entityId: target.id,
          cap: cap.name,
          capValue: cap.value,
          counter: ExactNumber.of(sum, scale),
          bucket: key,
          at: at.toISOString(),
        },
      ];
    }),
  );
