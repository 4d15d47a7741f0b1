import { COUNTER_ATTRIBUTE, METRICS, PERIODS, type Metric, type Period } from '../limits/metrics';
import { bucketExpiry, bucketOf } from '../limits/periods';
import type { ResetRequest } from './reset-request';
import { resetScope } from './reset-names';

/** Which stored counter of the entity a reset write touches. */
export type ResetTarget =
  { kind: 'counter'; bucket: string } | { kind: 'action'; actionId: number; bucket: string } | { kind: 'noConversion' };

/** One write of a flush: attributes of one item set to a value (0 for counters, now for the quiet time). */
export interface ResetWrite {
  target: ResetTarget;
  values: Record<string, number>;
  expiresAt?: number;
}

const targetText = (target: ResetTarget): string =>
  target.kind === 'noConversion'
    ? 'N'
    : target.kind === 'action'
      ? `A${target.actionId}#${target.bucket}`
      : `C${target.bucket}`;

/**
 * What a reset does, at flush time: named counters of the current periods to 0; ALL_LIMITS every delivery
 * counter; ALL_ACTION_LIMITS the counters of every per-action limit; ALL both; NO_CONVERSIONS_* the
 * no-conversion state. Pure, and idempotent when applied twice.
 */
export const planResetWrites = (request: ResetRequest, actionIds: readonly number[], now: Date): ResetWrite[] => {
  const writes = new Map<string, ResetWrite>();
  const set = (target: ResetTarget, attribute: string, value: number, expiresAt?: number) => {
    const text = targetText(target);
    const write = writes.get(text) ?? { target, values: {}, ...(expiresAt !== undefined ? { expiresAt } : {}) };
    write.values[attribute] = value;
    writes.set(text, write);
  };
  const zeroCounter = (period: Period, metric: Metric) =>
    set({ kind: 'counter', bucket: bucketOf(period, now) }, COUNTER_ATTRIBUTE[metric], 0, bucketExpiry(period, now));
  const scope = resetScope(request.counters);
  for (const { period, metric } of scope.counters) zeroCounter(period, metric);
  if (scope.allDeliveryCounters)
    for (const period of PERIODS) for (const metric of METRICS) zeroCounter(period, metric);
  if (scope.allActionCounters)
    for (const actionId of actionIds)
      for (const period of ['daily', 'total'] as const)
        set({ kind: 'action', actionId, bucket: bucketOf(period, now) }, 'conversions', 0, bucketExpiry(period, now));
  if (scope.noConversionHours) set({ kind: 'noConversion' }, 'quietSince', now.getTime());
  if (scope.noConversionImpressions) set({ kind: 'noConversion' }, 'impressionsSinceConversion', 0);
  return [...writes.values()];
};
