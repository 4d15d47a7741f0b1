import { PERIODS, type Period } from '../limits/metrics';
import { bucketExpiry, bucketOf } from '../limits/periods';
import { ancestorsOf, entityName, type EntityType } from '../levels';
import { revenueMillis, type DeliveryEvent } from './delivery-event';

/** Ancestors of the entities events name, from their catalog items. */
export interface Ancestry {
  banners: ReadonlyMap<number, { campaignId: number; advertiserId: number }>;
  placements: ReadonlyMap<number, { siteId: number }>;
}

export type CounterMetric = 'impressions' | 'clicks' | 'conversions' | 'opportunities' | 'requests';

export interface BucketIncrement {
  entityType: EntityType;
  entityId: number;
  period: Period;
  /** The period's bucket, from `bucketOf`: `D#2026-11-22`, `T` … */
  bucket: string;
  counts: Partial<Record<CounterMetric, number>>;
  revenueMillis: number;
  expiresAt?: number;
}

export interface ActionIncrement {
  entityType: EntityType;
  entityId: number;
  actionId: number;
  period: Period;
  bucket: string;
  conversions: number;
  expiresAt?: number;
}

export interface NoConversionUpdate {
  entityType: EntityType;
  entityId: number;
  /** Impressions after the batch's last conversion (all of them when it had none). */
  impressionsSinceConversion: number;
  /** When the batch saw its last conversion, if any (ms). */
  lastConversionAt?: number;
  /** When the batch saw its first delivery (ms), for entities that never converted. */
  firstDeliveryAt: number;
}

export interface AggregatedBatch {
  buckets: BucketIncrement[];
  actions: ActionIncrement[];
  noConversion: NoConversionUpdate[];
  recordedEvents: number;
  unknownEntityEvents: number;
}

const chainAbove = (type: EntityType, parentIds: Parameters<typeof ancestorsOf>[1]): [EntityType, number][] =>
  ancestorsOf(type, parentIds).map(({ type: parent, id }): [EntityType, number] => [parent, id]);

const METRIC: Record<DeliveryEvent['kind'], CounterMetric> = {
  impression: 'impressions',
  click: 'clicks',
  conversion: 'conversions',
  opportunity: 'opportunities',
  request: 'requests',
};

/**
 * Folds a batch into one increment per (entity, bucket): a banner event counts on the banner, its campaign and its
 * advertiser; a placement event on the placement and its site. Revenue counts on the demand side (the budget
 * counters); requests on the supply side only. Events whose entities are unknown are dropped and counted.
 */
export const aggregateDelivery = (events: readonly DeliveryEvent[], ancestry: Ancestry, now: Date): AggregatedBatch => {
  const buckets = new Map<string, BucketIncrement>();
  const actions = new Map<string, ActionIncrement>();
  const noConversion = new Map<string, NoConversionUpdate & { impressions: { at: number; count: number }[] }>();
  let recordedEvents = 0;
  let unknownEntityEvents = 0;

  const addBucket = (
    type: EntityType,
    id: number,
    at: Date,
    metric: CounterMetric | undefined,
    count: number,
    millis: number,
  ) => {
    for (const period of PERIODS) {
      const name = bucketOf(period, at);
      const text = `${entityName(type, id)}|${name}`;
      const bucket = buckets.get(text) ?? {
        entityType: type,
        entityId: id,
        period,
        bucket: name,
        counts: {},
        revenueMillis: 0,
        expiresAt: bucketExpiry(period, at),
      };
      if (metric) bucket.counts[metric] = (bucket.counts[metric] ?? 0) + count;
      bucket.revenueMillis += millis;
      buckets.set(text, bucket);
    }
  };

  const addAction = (type: EntityType, id: number, actionId: number, at: Date, count: number) => {
    for (const period of ['daily', 'total'] as const) {
      const bucket = bucketOf(period, at);
      const text = `${entityName(type, id)}|${actionId}|${bucket}`;
      const increment = actions.get(text) ?? {
        entityType: type,
        entityId: id,
        actionId,
        period,
        bucket,
        conversions: 0,
        expiresAt: bucketExpiry(period, at),
      };
      increment.conversions += count;
      actions.set(text, increment);
    }
  };

  const trackConversionState = (type: EntityType, id: number, event: DeliveryEvent, at: number) => {
    if (event.kind !== 'impression' && event.kind !== 'conversion') return;
    const text = entityName(type, id);
    const state = noConversion.get(text) ?? {
      entityType: type,
      entityId: id,
      impressionsSinceConversion: 0,
      firstDeliveryAt: at,
      impressions: [],
    };
    state.firstDeliveryAt = Math.min(state.firstDeliveryAt, at);
    if (event.kind === 'conversion') {
      if (state.lastConversionAt === undefined || at >= state.lastConversionAt) state.lastConversionAt = at;
    } else {
      state.impressions.push({ at, count: event.count });
    }
    noConversion.set(text, state);
  };

  for (const event of events) {
    const at = event.at ? new Date(event.at) : now;
    const banner = event.bannerId !== undefined ? ancestry.banners.get(event.bannerId) : undefined;
    const placement = event.placementId !== undefined ? ancestry.placements.get(event.placementId) : undefined;
    if ((event.bannerId !== undefined && !banner) || (event.placementId !== undefined && !placement)) {
      unknownEntityEvents++;
      continue;
    }
    recordedEvents++;
    const metric = METRIC[event.kind];
    const millis = revenueMillis(event.revenue) * event.count;
    if (banner && event.kind !== 'request') {
      const demand: [EntityType, number][] = [['BANNER', event.bannerId!], ...chainAbove('BANNER', banner)];
      for (const [type, id] of demand) {
        addBucket(type, id, at, metric, event.count, millis);
        if (event.actionId !== undefined) addAction(type, id, event.actionId, at, event.count);
        trackConversionState(type, id, event, at.getTime());
      }
    }
    if (placement) {
      const supply: [EntityType, number][] = [['PLACEMENT', event.placementId!], ...chainAbove('PLACEMENT', placement)];
      for (const [type, id] of supply) {
        addBucket(type, id, at, metric, event.count, 0);
        if (event.actionId !== undefined) addAction(type, id, event.actionId, at, event.count);
      }
    }
  }

  return {
    buckets: [...buckets.values()],
    actions: [...actions.values()],
    noConversion: [...noConversion.values()].map(({ impressions, ...state }) => ({
      ...state,
      impressionsSinceConversion: impressions
        .filter(({ at }) => state.lastConversionAt === undefined || at > state.lastConversionAt)
        .reduce((sum, { count }) => sum + count, 0),
    })),
    recordedEvents,
    unknownEntityEvents,
  };
};
