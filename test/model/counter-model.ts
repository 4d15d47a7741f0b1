import { MODEL_PERIODS, periodKey, type ModelPeriod } from './calendar';
import { bannerChain, placementChain } from './model-catalog';

/**
 * The reference model of the delivery counters: the counting rules as the documentation states them, applied to
 * one event at a time, with none of the service's batching, conditions or retries. It is the test oracle of the
 * model-based test: whatever order, grouping, redelivery or fault the platform adds, the stored counters must
 * come to what this model computes from the messages alone.
 */
export type ModelKind = 'impression' | 'click' | 'conversion' | 'opportunity' | 'request';
export type ModelMetric = 'impressions' | 'clicks' | 'conversions' | 'opportunities' | 'budget' | 'requests';

export interface ModelEvent {
  kind: ModelKind;
  bannerId?: number;
  placementId?: number;
  actionId?: number;
  revenue?: string;
  count: number;
  at?: string;
}

export interface ModelMessage {
  /** When the queue received the message (ms). */
  sentAt: number;
  events: ModelEvent[];
}

export type ModelCounts = Partial<Record<ModelMetric, bigint>>;

export interface ModelItem {
  /** Per period: the period its counters count in, and the counters (budget in thousandths). */
  periods: Partial<Record<ModelPeriod, { key: string; counts: ModelCounts }>>;
  /** Demand entities: every impression and conversion instant, from which the no-conversion state follows. */
  impressions: { at: number; count: bigint }[];
  conversions: number[];
}

const METRIC: Record<ModelKind, ModelMetric> = {
  impression: 'impressions',
  click: 'clicks',
  conversion: 'conversions',
  opportunity: 'opportunities',
  request: 'requests',
};

const ACTION_PERIODS: readonly ModelPeriod[] = ['daily', 'total'];

/** `DAILY_IMPRESSIONS`, `TOTAL_REVENUE`: a counter's name in reset.do. */
export const resetName = (period: ModelPeriod, metric: ModelMetric): string =>
  `${period.toUpperCase()}_${metric === 'budget' ? 'REVENUE' : metric.toUpperCase()}`;

/** The documented tolerance: an event dated more than this after its message was received counts at receipt. */
export const DEFAULT_FUTURE_TOLERANCE_MS = 5 * 60_000;

/** A decimal with at most three places, in thousandths. */
export const millisOf = (decimal: string): bigint => {
  const [whole, fraction = ''] = decimal.split('.');
  return BigInt(whole!) * 1000n + BigInt(fraction.padEnd(3, '0'));
};

/**
 * The accepted window of an event's `at`, written out here on its own: from 14 days before its message's receipt to
 * 1 day after it. A message with an event outside it is dead-lettered whole and counts nowhere.
 */
export const ACCEPTED_BEFORE_MS = 14 * 86_400_000;
export const ACCEPTED_AFTER_MS = 86_400_000;

export const isAccepted = (message: ModelMessage): boolean =>
  message.events.every((event) => {
    if (event.at === undefined) return true;
    const at = Date.parse(event.at);
    return at >= message.sentAt - ACCEPTED_BEFORE_MS && at <= message.sentAt + ACCEPTED_AFTER_MS;
  });

/** The instant an event counts at: its `at`, else its message's receipt; never later than receipt + tolerance. */
export const countedAt = (event: ModelEvent, sentAt: number, toleranceMs: number): number => {
  if (event.at === undefined) return sentAt;
  const at = Date.parse(event.at);
  return at > sentAt + toleranceMs ? sentAt : at;
};

/**
 * When the quiet time began (the last conversion, else the first impression) and the impressions since the last
 * conversion. An impression at the very instant of the last conversion cannot be ordered against it by its time:
 * the rules leave it open whether it counts, so the count is a range, exact whenever there is no such tie. When
 * events arrive out of their time order, impressions counted before a conversion dated earlier than they are may be
 * dropped by it (the item keeps their sum, not their instants): the count is then at most `most`, and never holds an
 * impression dated before the last conversion; with no conversion it is every impression.
 */
export const noConversionState = (
  item: ModelItem,
): { quietSince: number; conversions: boolean; impressions: { least: bigint; most: bigint } } | undefined => {
  if (item.impressions.length === 0 && item.conversions.length === 0) return undefined;
  const last = item.conversions.length > 0 ? Math.max(...item.conversions) : undefined;
  const sum = (counted: (at: number) => boolean) =>
    item.impressions.filter(({ at }) => counted(at)).reduce((total, { count }) => total + count, 0n);
  return {
    quietSince: last ?? Math.min(...item.impressions.map(({ at }) => at)),
    conversions: last !== undefined,
    impressions: {
      least: sum((at) => last === undefined || at > last),
      most: sum((at) => last === undefined || at >= last),
    },
  };
};

export class CounterModel {
  /** By `PK/SK` of the counter item: `BANNER#9100/COUNTERS`, `BANNER#9100/ACTCTR#7`. */
  readonly items = new Map<string, ModelItem>();

  constructor(private readonly toleranceMs = DEFAULT_FUTURE_TOLERANCE_MS) {}

  apply(message: ModelMessage): void {
    if (!isAccepted(message)) return;
    for (const event of message.events) this.applyEvent(event, countedAt(event, message.sentAt, this.toleranceMs));
  }

  /**
   * A reset applied by the flush at `now`: the named counters (`DAILY_IMPRESSIONS`, `TOTAL_REVENUE`, or every one
   * with `ALL_LIMITS`) of the entity's own item to 0, in the periods the item is in now; a period the item has
   * not reached or has left already reads as 0.
   */
  reset(entity: string, name: string, now: number): void {
    const item = this.items.get(`${entity}/COUNTERS`);
    if (!item) return;
    for (const period of MODEL_PERIODS) {
      const current = item.periods[period];
      if (!current || current.key !== periodKey(period, now)) continue;
      for (const metric of Object.keys(current.counts) as ModelMetric[])
        if (name === 'ALL_LIMITS' || name === resetName(period, metric)) current.counts[metric] = 0n;
    }
  }

  private applyEvent(event: ModelEvent, at: number): void {
    const banners = event.bannerId === undefined ? [] : bannerChain(event.bannerId);
    const placements = event.placementId === undefined ? [] : placementChain(event.placementId);
    if (!banners || !placements) return; // an unknown entity: the whole event is dropped
    const units = BigInt(event.count);
    const budget = event.revenue === undefined ? 0n : millisOf(event.revenue) * units;
    const counts: ModelCounts = { [METRIC[event.kind]]: units };
    for (const entity of event.kind === 'request' ? [] : banners) {
      const item = this.count(`${entity}/COUNTERS`, MODEL_PERIODS, at, budget > 0n ? { ...counts, budget } : counts);
      if (event.kind === 'impression') item.impressions.push({ at, count: units });
      if (event.kind === 'conversion') item.conversions.push(at);
    }
    for (const entity of placements) this.count(`${entity}/COUNTERS`, MODEL_PERIODS, at, counts);
    if (event.actionId !== undefined)
      for (const entity of [...(event.kind === 'request' ? [] : banners), ...placements])
        this.count(`${entity}/ACTCTR#${event.actionId}`, ACTION_PERIODS, at, { conversions: units });
  }

  /**
   * A period's counters move to a later period when an event of it comes (the earlier one's are dropped); an
   * event of an earlier period than the item's is not counted in that period; the total takes everything.
   */
  private count(name: string, periods: readonly ModelPeriod[], at: number, counts: ModelCounts): ModelItem {
    const item = this.items.get(name) ?? { periods: {}, impressions: [], conversions: [] };
    this.items.set(name, item);
    for (const period of periods) {
      const key = periodKey(period, at);
      const current = item.periods[period];
      if (current !== undefined && key < current.key) continue;
      const kept = current?.key === key ? current.counts : {};
      for (const [metric, units] of Object.entries(counts) as [ModelMetric, bigint][])
        kept[metric] = (kept[metric] ?? 0n) + units;
      item.periods[period] = { key, counts: kept };
    }
    return item;
  }
}
