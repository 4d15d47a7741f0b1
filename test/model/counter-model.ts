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

/** One period's counters on an item: the period they count in, and the counters (budget in thousandths). */
export interface ModelSlot {
  key: string;
  counts: ModelCounts;
}

/** A period's two slots: the period the item is in, and the one it was in just before (none yet: absent). */
export interface ModelSlots {
  current: ModelSlot;
  previous?: ModelSlot;
}

export interface ModelItem {
  /** Per period: its current and previous periods with their counters. */
  periods: Partial<Record<ModelPeriod, ModelSlots>>;
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

const addTo = (into: ModelCounts, counts: ModelCounts): ModelCounts => {
  for (const [metric, units] of Object.entries(counts) as [ModelMetric, bigint][])
    into[metric] = (into[metric] ?? 0n) + units;
  return into;
};

/**
 * One event's counts in a period's two slots. An event of the current or the previous period adds there; a later
 * period than the current one becomes current (the current one previous, the previous one dropped); a period
 * between the two becomes the previous one (the older one dropped); an older one than both is not counted there.
 * So the item holds the two latest periods of its events, whatever their order. Keys compare as text: they are
 * written with four-digit years.
 */
export const countInSlots = (slots: ModelSlots | undefined, key: string, counts: ModelCounts): ModelSlots => {
  const fresh = () => ({ key, counts: addTo({}, counts) });
  if (!slots) return { current: fresh() };
  const { current, previous } = slots;
  if (key === current.key)
    return { current: { key, counts: addTo(current.counts, counts) }, ...(previous ? { previous } : {}) };
  if (key > current.key) return { current: fresh(), previous: current };
  if (key === previous?.key) return { current, previous: { key, counts: addTo(previous.counts, counts) } };
  if (previous === undefined || key > previous.key) return { current, previous: fresh() };
  return slots;
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
   * with `ALL_LIMITS`) of the entity's own item to 0, in the periods that hold `now`, in whichever slot holds each;
   * a period the item holds in neither slot already reads as 0, and the other slot is left as it is.
   */
  reset(entity: string, name: string, now: number): void {
    const item = this.items.get(`${entity}/COUNTERS`);
    if (!item) return;
    for (const period of MODEL_PERIODS) {
      const slots = item.periods[period];
      const shown = [slots?.current, slots?.previous].find((slot) => slot?.key === periodKey(period, now));
      if (!shown) continue;
      for (const metric of Object.keys(shown.counts) as ModelMetric[])
        if (name === 'ALL_LIMITS' || name === resetName(period, metric)) shown.counts[metric] = 0n;
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

  private count(name: string, periods: readonly ModelPeriod[], at: number, counts: ModelCounts): ModelItem {
    const item = this.items.get(name) ?? { periods: {}, impressions: [], conversions: [] };
    this.items.set(name, item);
    for (const period of periods)
      item.periods[period] = countInSlots(item.periods[period], periodKey(period, at), counts);
    return item;
  }
}
