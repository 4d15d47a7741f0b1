import { storedItem } from '../../shared/adapters/dynamodb/attribute-values';
import { counterAttribute } from '../../shared/adapters/dynamodb/counter-attributes';
import { besideMarkerRequest } from '../../shared/adapters/dynamodb/group-marker-requests';
import { counterWriteRequest } from '../../shared/adapters/dynamodb/counter-requests';
import { counterState, inlineMarkerState } from '../../shared/adapters/dynamodb/counter-item-state';
import type { Item } from '../../shared/adapters/dynamodb/table-store';
import { messageContributions, type Ancestry } from '../../shared/domain/delivery/contributions';
import { planCounterWrite, sequenceText, type PendingMessage } from '../../shared/domain/delivery/counter-plan';
import type { CounterState } from '../../shared/domain/delivery/counter-state';
import { METRICS, PERIODS } from '../../shared/domain/limits/cap-axes';
import { countersKey } from '../../shared/table/keys';
import { applyUpdate } from './apply-update';
import { itemSize, writeUnits } from './item-size';

const ADVERTISER = 7;
const ancestry: Ancestry = {
  banners: new Map([[1, { campaignId: 3, advertiserId: ADVERTISER }]]),
  placements: new Map(),
};
const KEY = countersKey('ADVERTISER', ADVERTISER);
const FIRST_SEQUENCE = 18_849_496_460_467_696_128n;

/** A producer's group of the longest name SQS allows (128 characters). */
const longGroup = (index: number) => `${String(index).padStart(7, '0')}-`.padEnd(128, 'g');

export interface ManyGroupsDay {
  groups: number;
  batches: number;
  /** The advertiser's total impressions at the end: one per message. */
  counted: bigint;
  largestItem: number;
  markerItemBytes: number;
  /** Write units of the day's batches, and of a batch once the item keeps markers beside it. */
  writeUnits: number;
  unitsPerBatch: number;
  transactions: number;
}

/**
 * The item as a write planned from it reads it (an absent item: empty), every group of the day new, so no marker
 * item exists yet: the writes a recorder sends once its first write failed or once it knows the item keeps markers
 * beside it (the first write of a batch of more groups than an item holds fails on a new item).
 */
const stateOf = (item: Item | undefined): CounterState => ({
  ...counterState(item, PERIODS, METRICS),
  ...inlineMarkerState(item),
  beside: {},
});

const batchOf = (first: number, size: number, at: Date): PendingMessage[] => {
  const { contributions } = messageContributions([{ kind: 'impression', bannerId: 1, count: 1 }], ancestry, at);
  const contribution = contributions.find((one) => one.target.type === 'ADVERTISER')!;
  return Array.from({ length: size }, (_, i) => ({
    messageId: `m${first + i}`,
    group: longGroup(first + i),
    sequence: sequenceText(FIRST_SEQUENCE + BigInt(first + i)),
    contribution,
  }));
};

/**
 * One day of `groups` message groups, each sending one message of one impression, in batches of `perBatch` distinct
 * groups, on one advertiser's counter item, as the recorder writes them once a container knows the item keeps
 * markers beside it: the real planner and request builders, each write applied to the item and its marker items,
 * billed as DynamoDB bills them (twice inside a transaction). Pure.
 */
export const manyGroupsDay = (groups: number, perBatch: number, at: Date): ManyGroupsDay => {
  let item: Item | undefined;
  let previous = 0;
  const day: ManyGroupsDay = {
    groups,
    batches: 0,
    counted: 0n,
    largestItem: 0,
    markerItemBytes: 0,
    writeUnits: 0,
    unitsPerBatch: 0,
    transactions: 0,
  };
  for (let first = 0; first < groups; first += perBatch) {
    const pending = batchOf(first, Math.min(perBatch, groups - first), at);
    const write = planCounterWrite(stateOf(item), pending, { periods: PERIODS, metrics: METRICS }, { now: at })!;
    const transactional = Object.keys(write.beside).length > 0;
    item = applyUpdate(item, counterWriteRequest(KEY, write));
    const size = itemSize(storedItem(item));
    let units = writeUnits(previous, size, transactional);
    previous = size;
    for (const [group, change] of Object.entries(write.beside)) {
      const request = besideMarkerRequest(KEY, group, change);
      const marker = applyUpdate(undefined, request);
      day.markerItemBytes = Math.max(day.markerItemBytes, itemSize(storedItem(marker)));
      units += writeUnits(0, itemSize(storedItem(marker)), true);
    }
    day.batches++;
    day.transactions += transactional ? 1 : 0;
    day.writeUnits += units;
    day.unitsPerBatch = units;
    day.largestItem = Math.max(day.largestItem, size);
  }
  day.counted = BigInt(String(item?.[counterAttribute('total', 'impressions')] ?? 0));
  return day;
};
