import { METRICS, PERIODS, type Metric, type Period } from '../limits/cap-axes';
import { resetScope } from './reset-names';
import type { ResetRequest } from './reset-request';

/** What a flush does to one counter item: these counters of the periods the item is in now to 0, and the no-conversion state. */
export interface ResetWrite {
  /** The entity's own counter item, or one action's. */
  actionId?: number;
  zeroes: { period: Period; metric: Metric }[];
  /** NO_CONVERSIONS_HOURS restarts the quiet time now; NO_CONVERSIONS_IMPRESSIONS zeroes the impressions since. */
  noConversion: { quietSince?: number; impressions?: boolean };
}

/**
 * What a reset does, at flush time: named counters to 0; ALL_LIMITS every delivery counter; ALL_ACTION_LIMITS the
 * counters of every per-action limit; ALL both; NO_CONVERSIONS_* the no-conversion state. Pure, and idempotent
 * when applied twice.
 */
export const planResetWrites = (request: ResetRequest, actionIds: readonly number[], now: Date): ResetWrite[] => {
  const scope = resetScope(request.counters);
  const zeroes = scope.allDeliveryCounters
    ? PERIODS.flatMap((period) => METRICS.map((metric) => ({ period, metric })))
    : scope.counters;
  const noConversion = {
    ...(scope.noConversionHours ? { quietSince: now.getTime() } : {}),
    ...(scope.noConversionImpressions ? { impressions: true } : {}),
  };
  const own: ResetWrite[] = zeroes.length > 0 || Object.keys(noConversion).length > 0 ? [{ zeroes, noConversion }] : [];
  const actions: ResetWrite[] = scope.allActionCounters
    ? actionIds.map((actionId) => ({
        actionId,
        zeroes: (['daily', 'total'] as const).map((period) => ({ period, metric: 'conversions' as const })),
        noConversion: {},
      }))
    : [];
  return [...own, ...actions];
};
