import { type CapGrid } from '../limits/cap-grid';
import { COUNTER_ATTRIBUTE } from '../limits/metrics';
import type { LimitRecord } from '../limits/limit-record';
import { type EntityType } from '../levels';
import type { ActionIncrement, BucketIncrement } from './aggregate';

/** Published once when a write makes a counter reach its cap (counter ≥ cap > 0). */
export interface LimitReached {
  entity: string;
  entityType: EntityType;
  entityId: number;
  /** Cap name, e.g. `dailyImpressionsLimit`, or `dailyConversionsLimit` of a per-action limit. */
  cap: string;
  capValue: number;
  counter: number;
  actionId?: number;
  bucket: string;
  at: string;
}

/** A cap is crossed by this write when the counter was below it before and is at or above it now. */
export const crosses = (cap: number, before: number, after: number): boolean => cap > 0 && before < cap && after >= cap;

/** LimitReached events for the caps of one bucket write, from the counters the write returned. */
export const bucketCrossings = (
  increment: BucketIncrement,
  after: Record<string, unknown>,
  limit: LimitRecord | undefined,
  grid: CapGrid,
  at: Date,
): LimitReached[] => {
  if (!limit) return [];
  const crossings: LimitReached[] = [];
  for (const cap of grid.caps) {
    if (cap.period !== increment.period) continue;
    const capValue = limit.caps[cap.name] ?? 0;
    const attribute = COUNTER_ATTRIBUTE[cap.metric];
    const counter = Number(after[attribute] ?? 0);
    // budgets compare in thousandths, so that decimal sums cannot wobble across the cap
    const scale = cap.metric === 'budget' ? 1000 : 1;
    const added =
      cap.metric === 'budget'
        ? increment.revenueMillis
        : (increment.counts[cap.metric as keyof typeof increment.counts] ?? 0);
    if (added === 0) continue;
    const now = Math.round(counter * scale);
    if (crosses(Math.round(capValue * scale), now - added, now))
      crossings.push({
        entity: `${increment.entityType}#${increment.entityId}`,
        entityType: increment.entityType,
        entityId: increment.entityId,
        cap: cap.name,
        capValue,
        counter,
        bucket: increment.bucket,
        at: at.toISOString(),
      });
  }
  return crossings;
};

/** LimitReached for a per-action counter write, when its limit caps delivery (switch on, or a supply entity). */
export const actionCrossing = (
  increment: ActionIncrement,
  after: number,
  limit: { dailyConversionsLimit: number; totalConversionsLimit: number } | undefined,
  at: Date,
): LimitReached[] => {
  if (!limit) return [];
  const cap = increment.period === 'daily' ? 'dailyConversionsLimit' : 'totalConversionsLimit';
  const capValue = limit[cap];
  if (!crosses(capValue, after - increment.conversions, after)) return [];
  return [
    {
      entity: `${increment.entityType}#${increment.entityId}`,
      entityType: increment.entityType,
      entityId: increment.entityId,
      cap,
      capValue,
      counter: after,
      actionId: increment.actionId,
      bucket: increment.bucket,
      at: at.toISOString(),
    },
  ];
};
