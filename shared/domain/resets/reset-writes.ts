import { BUCKET_ATTRIBUTE, METRICS, PERIODS, RESET_WORD, type Metric, type Period } from '../limits/cap-grid';
import { bucketExpiry, bucketOf } from '../limits/periods';
import type { ResetRequest } from '../../ports/reset-queue';
import { actionCounterKey, counterKey, itemKeyText, noConversionKey, type ItemKey } from '../../table/keys';

/** One write of a flush: attributes of one item set to a value (0 for counters, now for the quiet time). */
export interface ResetWrite {
  key: ItemKey;
  values: Record<string, number>;
  expiresAt?: number;
}

/** `DAILY_IMPRESSIONS` → daily / impressions; `TOTAL_REVENUE` → total / the budget counter. */
const counterOf = (name: string): { period: Period; metric: Metric } | undefined => {
  const [periodWord, word] = name.split('_', 2);
  const period = PERIODS.find((candidate) => candidate.toUpperCase() === periodWord);
  const metric = METRICS.find((candidate) => RESET_WORD[candidate] === word);
  return period && metric ? { period, metric } : undefined;
};

/**
 * What a reset does, at flush time: named counters of the current buckets to 0; ALL_LIMITS every delivery
 * counter; ALL_ACTION_LIMITS the counters of every per-action limit; ALL both; NO_CONVERSIONS_* the
 * no-conversion state. Pure, and idempotent when applied twice.
 */
export const planResetWrites = (request: ResetRequest, actionIds: readonly number[], now: Date): ResetWrite[] => {
  const writes = new Map<string, ResetWrite>();
  const zero = (key: ItemKey, attribute: string, value: number, expiresAt?: number) => {
    const text = itemKeyText(key);
    const write = writes.get(text) ?? { key, values: {}, ...(expiresAt !== undefined ? { expiresAt } : {}) };
    write.values[attribute] = value;
    writes.set(text, write);
  };
  const { entityType: type, entityId: id } = request;
  const zeroCounter = (period: Period, metric: Metric) =>
    zero(counterKey(type, id, bucketOf(period, now)), BUCKET_ATTRIBUTE[metric], 0, bucketExpiry(period, now));
  for (const name of request.counters) {
    const counter = counterOf(name);
    if (counter) zeroCounter(counter.period, counter.metric);
    if (name === 'ALL_LIMITS' || name === 'ALL') for (const period of PERIODS) for (const metric of METRICS) zeroCounter(period, metric);
    if (name === 'ALL_ACTION_LIMITS' || name === 'ALL')
      for (const actionId of actionIds)
        for (const period of ['daily', 'total'] as const)
          zero(actionCounterKey(type, id, actionId, bucketOf(period, now)), 'conversions', 0, bucketExpiry(period, now));
    if (name === 'NO_CONVERSIONS_HOURS') zero(noConversionKey(type, id), 'quietSince', now.getTime());
    if (name === 'NO_CONVERSIONS_IMPRESSIONS') zero(noConversionKey(type, id), 'impressionsSinceConversion', 0);
  }
  return [...writes.values()];
};
