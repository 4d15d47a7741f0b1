import { counterWriteRequest } from '../../shared/adapters/dynamodb/counter-requests';
import type { Item } from '../../shared/adapters/dynamodb/table-store';
import { messageContributions, type Ancestry } from '../../shared/domain/delivery/contributions';
import { planCounterWrite, sequenceText, type PendingMessage } from '../../shared/domain/delivery/counter-plan';
import type { DeliveryEvent } from '../../shared/domain/delivery/delivery-event';
import { METRICS, PERIODS } from '../../shared/domain/limits/cap-axes';
import type { CapOnCounter } from '../../shared/domain/delivery/limit-reached';
import { countersKey } from '../../shared/table/keys';
import { storedItem } from '../../shared/adapters/dynamodb/attribute-values';
import { groupId } from './groups';
import { itemSize, writeUnits } from './item-size';
import { applyUpdate } from './apply-update';

const ADVERTISER = 7;
const ancestry: Ancestry = {
  banners: new Map([[1, { campaignId: 3, advertiserId: ADVERTISER }]]),
  placements: new Map(),
};
/** The caps the recorder hands the write: a daily impression cap and a total budget. */
const CAPS: CapOnCounter[] = [
  { name: 'dailyImpressionsLimit', period: 'daily', metric: 'impressions', value: 1_000_000_000 },
  { name: 'totalBudgetLimit', period: 'total', metric: 'budget', value: 50_000_000 },
];
/**
 * SQS numbers a FIFO queue's messages with 20-digit sequence numbers (e.g. 18849496460467696128, in the SQS
 * Developer Guide's examples): the simulation's are as long.
 */
const FIRST_SEQUENCE = 18_849_496_460_467_696_128n;

export interface PlannedWrite {
  after: Item;
  sizeBefore: number;
  sizeAfter: number;
  units: number;
}

/** A delivery batch: `events` impressions in message `sequence` of message group `group`. */
export interface AdvertiserBatch {
  group: number;
  sequence: number;
  events: number;
}

/**
 * One delivery batch on the advertiser's counter item, as the recorder writes it: the real contributions, the real
 * planner and the real UpdateItem request, applied to the item.
 */
export const plannedAdvertiserWrite = (
  before: Item | undefined,
  { group, sequence, events }: AdvertiserBatch,
  at: Date,
): PlannedWrite => {
  const impressions: DeliveryEvent[] = [{ kind: 'impression', bannerId: 1, count: events, revenue: '0.002' }];
  const { contributions } = messageContributions(impressions, ancestry, at);
  const contribution = contributions.find((one) => one.target.type === 'ADVERTISER')!;
  const pending: PendingMessage[] = [
    {
      messageId: `m${sequence}`,
      group: groupId(group),
      sequence: sequenceText(FIRST_SEQUENCE + BigInt(sequence)),
      contribution,
    },
  ];
  const write = planCounterWrite(undefined, pending, { periods: PERIODS, metrics: METRICS }, { now: at })!;
  const request = counterWriteRequest(countersKey('ADVERTISER', ADVERTISER), write, CAPS);
  const after = applyUpdate(before, request);
  const sizeBefore = before ? itemSize(storedItem(before)) : 0;
  const sizeAfter = itemSize(storedItem(after));
  return { after, sizeBefore, sizeAfter, units: writeUnits(sizeBefore, sizeAfter) };
};

/**
 * Write units and size of a write to a counter item that holds the markers of `markers` message groups, for every
 * count from 1 to `most` (index 0 repeats 1): the item is grown group by group through real planned writes, as a
 * long run leaves it when every group has written it.
 */
export const writeUnitsByMarkers = (most: number, at: Date): { units: number[]; sizes: number[] } => {
  const units: number[] = [];
  const sizes: number[] = [];
  let item: Item | undefined;
  let sequence = 1;
  for (let markers = 1; markers <= most; markers++) {
    item = plannedAdvertiserWrite(item, { group: markers - 1, sequence: sequence++, events: 1_000 }, at).after;
    const again = plannedAdvertiserWrite(item, { group: 0, sequence: sequence++, events: 1_000 }, at);
    units[markers] = again.units;
    sizes[markers] = again.sizeAfter;
  }
  units[0] = units[1]!;
  sizes[0] = sizes[1]!;
  return { units, sizes };
};
