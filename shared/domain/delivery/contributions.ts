import { ancestorsOf, entityName, type EntityType } from '../levels';
import { ACTION_PERIODS, PERIODS, type Metric, type Period } from '../limits/metrics';
import { bucketOf } from '../limits/periods';
import { add, type Tally } from './counter-state';
import { revenueMillis, type DeliveryEvent } from './delivery-event';

/** Ancestors of the entities events name, from their catalog items. */
export interface Ancestry {
  banners: ReadonlyMap<number, BannerAncestry>;
  placements: ReadonlyMap<number, PlacementAncestry>;
}

type BannerAncestry = { campaignId: number; advertiserId: number };
type PlacementAncestry = { siteId: number };

/** A counter item: an entity's, or one action's on an entity. */
export interface CounterTarget {
  type: EntityType;
  id: number;
  actionId?: number;
}

export const targetName = ({ type, id, actionId }: CounterTarget): string =>
  actionId === undefined ? entityName(type, id) : `${entityName(type, id)}|${actionId}`;

/** What one delivery message adds to one counter item, by period and the period it falls in. */
export interface Contribution {
  target: CounterTarget;
  periods: Partial<Record<Period, Map<string, Tally>>>;
  /** Impressions and conversions with their instants (ms), for the no-conversion state of demand entities. */
  impressions: { at: number; count: bigint }[];
  conversions: number[];
}

export interface MessageContributions {
  contributions: Contribution[];
  recordedEvents: number;
  unknownEntityEvents: number;
  /** Events dated past the tolerance after their message was received: counted at the receive time. */
  futureDatedEvents: number;
}

/** How far after its message's receive time an event's `at` may lie (clock skew) before it counts at that time. */
export const DEFAULT_FUTURE_TOLERANCE_MS = 5 * 60_000;

/**
 * The instant an event counts at: its `at`, unless that lies more than `toleranceMs` after its message was
 * received, when it counts at the receive time, so that no event moves an item's periods past the present.
 */
export const countingInstant = (
  at: number | undefined,
  sentAt: Date,
  toleranceMs: number,
): { instant: Date; futureDated: boolean } => {
  if (at === undefined) return { instant: sentAt, futureDated: false };
  const instant = new Date(at);
  return at - sentAt.getTime() > toleranceMs ? { instant: sentAt, futureDated: true } : { instant, futureDated: false };
};

const METRIC: Record<DeliveryEvent['kind'], Metric> = {
  impression: 'impressions',
  click: 'clicks',
  conversion: 'conversions',
  opportunity: 'opportunities',
  request: 'requests',
};

const chain = (type: EntityType, id: number, parentIds: Parameters<typeof ancestorsOf>[1]): CounterTarget[] => [
  { type, id },
  ...ancestorsOf(type, parentIds),
];

type Count = (target: CounterTarget, periods: readonly Period[], at: Date, tally: Tally) => Contribution;

/** The contributions of one message by counter item, each made on the item's first count. */
const contributionTally = () => {
  const byTarget = new Map<string, Contribution>();
  const count: Count = (target, periods, at, tally) => {
    const name = targetName(target);
    let contribution = byTarget.get(name);
    if (!contribution) {
      contribution = { target, periods: {}, impressions: [], conversions: [] };
      byTarget.set(name, contribution);
    }
    for (const period of periods) {
      const keys = (contribution.periods[period] ??= new Map());
      const key = bucketOf(period, at);
      keys.set(key, add(keys.get(key) ?? {}, tally));
    }
    return contribution;
  };
  return { count, contributions: () => [...byTarget.values()] };
};

/** An action's conversions count on the action's own counter item of each target too. */
const countAction = (count: Count, target: CounterTarget, event: DeliveryEvent, at: Date) => {
  if (event.actionId !== undefined)
    count({ ...target, actionId: event.actionId }, ACTION_PERIODS, at, { conversions: BigInt(event.count) });
};

const countOnBannerChain = (count: Count, event: DeliveryEvent, banner: BannerAncestry, at: Date) => {
  const units = BigInt(event.count);
  const revenue = revenueMillis(event.revenue) * units;
  for (const target of chain('BANNER', event.bannerId!, banner)) {
    const contribution = count(target, PERIODS, at, {
      [METRIC[event.kind]]: units,
      ...(revenue > 0n ? { budget: revenue } : {}),
    });
    if (event.kind === 'impression') contribution.impressions.push({ at: at.getTime(), count: units });
    if (event.kind === 'conversion') contribution.conversions.push(at.getTime());
    countAction(count, target, event, at);
  }
};

const countOnPlacementChain = (count: Count, event: DeliveryEvent, placement: PlacementAncestry, at: Date) => {
  for (const target of chain('PLACEMENT', event.placementId!, placement)) {
    count(target, PERIODS, at, { [METRIC[event.kind]]: BigInt(event.count) });
    countAction(count, target, event, at);
  }
};

/**
 * What one message's events add to each counter item: a banner event counts on the banner, its campaign and its
 * advertiser; a placement event on the placement and its site. Revenue counts on the demand side (the budget
 * counters), requests on the supply side only; an action's conversions also on that action's counter item. An
 * event counts in the periods of its own instant (`at`, else the message's; see `countingInstant`), which the
 * write then keeps only where the item has not moved past them. Events for unknown entities are dropped and
 * counted. Pure.
 */
export const messageContributions = (
  events: readonly DeliveryEvent[],
  ancestry: Ancestry,
  sentAt: Date,
  futureToleranceMs: number = DEFAULT_FUTURE_TOLERANCE_MS,
): MessageContributions => {
  const tally = contributionTally();
  let recordedEvents = 0;
  let unknownEntityEvents = 0;
  let futureDatedEvents = 0;
  for (const event of events) {
    const { instant: at, futureDated } = countingInstant(event.at, sentAt, futureToleranceMs);
    const banner = event.bannerId !== undefined ? ancestry.banners.get(event.bannerId) : undefined;
    const placement = event.placementId !== undefined ? ancestry.placements.get(event.placementId) : undefined;
    if ((event.bannerId !== undefined && !banner) || (event.placementId !== undefined && !placement)) {
      unknownEntityEvents++;
      continue;
    }
    recordedEvents++;
    if (futureDated) futureDatedEvents++;
    if (banner && event.kind !== 'request') countOnBannerChain(tally.count, event, banner, at);
    if (placement) countOnPlacementChain(tally.count, event, placement, at);
  }
  return { contributions: tally.contributions(), recordedEvents, unknownEntityEvents, futureDatedEvents };
};
