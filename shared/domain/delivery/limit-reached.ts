import { entityName, type EntityType } from '../levels';
import type { CapGrid } from '../limits/cap-grid';
import type { Metric, Period } from '../limits/metrics';
import type { CounterWrite } from './counter-plan';
import { ExactNumber, unitScale, unitsFromCap } from './exact-units';

/** Published once when a write makes a counter reach its cap (counter ≥ cap > 0). */
export interface LimitReached {
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

/** What one write did to one counter, in units. */
export interface CounterChange {
  period: Period;
  key: string;
  metric: Metric;
  before: bigint;
  after: bigint;
}

/** A cap is crossed by this write when the counter was below it before and is at or above it now. */
export const crosses = (cap: bigint, before: bigint, after: bigint): boolean =>
  cap > 0n && before < cap && after >= cap;

/** The counters a write changed, from the values it returned: an `add` started from after − added, a `set` from 0. */
export const counterChanges = (
  write: CounterWrite,
  after: (period: Period, metric: Metric) => bigint | undefined,
): CounterChange[] =>
  (Object.entries(write.periods) as [Period, NonNullable<CounterWrite['periods'][Period]>][]).flatMap(
    ([period, change]) =>
      (Object.entries(change.tally) as [Metric, bigint][]).map(([metric, added]) => {
        const now = after(period, metric) ?? added;
        return { period, key: change.key, metric, before: change.mode === 'add' ? now - added : 0n, after: now };
      }),
  );

/** The caps of a limit record on one side's grid, as writes see them. */
export const gridCaps = (grid: CapGrid, caps: Readonly<Record<string, number>>): CapOnCounter[] =>
  grid.caps.map((cap) => ({ name: cap.name, period: cap.period, metric: cap.metric, value: caps[cap.name] ?? 0 }));

/** The two caps of a per-action limit. */
export const actionCaps = (limit: { dailyConversionsLimit: number; totalConversionsLimit: number }): CapOnCounter[] => [
  { name: 'dailyConversionsLimit', period: 'daily', metric: 'conversions', value: limit.dailyConversionsLimit },
  { name: 'totalConversionsLimit', period: 'total', metric: 'conversions', value: limit.totalConversionsLimit },
];

/** LimitReached events for the caps one write made its counters reach. */
export const limitCrossings = (
  target: { type: EntityType; id: number; actionId?: number },
  changes: readonly CounterChange[],
  caps: readonly CapOnCounter[],
  at: Date,
): LimitReached[] =>
  caps.flatMap((cap) => {
    const change = changes.find((candidate) => candidate.period === cap.period && candidate.metric === cap.metric);
    const scale = unitScale(cap.metric);
    if (!change || !crosses(unitsFromCap(cap.value, scale), change.before, change.after)) return [];
    return [
      {
        entity: entityName(target.type, target.id),
        entityType: target.type,
        entityId: target.id,
        cap: cap.name,
        capValue: cap.value,
        counter: ExactNumber.of(change.after, scale),
        ...(target.actionId !== undefined ? { actionId: target.actionId } : {}),
        bucket: change.key,
        at: at.toISOString(),
      },
    ];
  });
