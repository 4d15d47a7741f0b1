import { NumberValue, type UpdateInput } from './attribute-values';
import type {
  CounterWrite,
  InstantExpectation,
  NoConversionWrite,
  PendingMessage,
  ShardWriteOptions,
} from '../../domain/delivery/counter-plan';
import { planCounterWrite } from '../../domain/delivery/counter-plan';
import { EMPTY_COUNTERS, type CounterState, type Tally } from '../../domain/delivery/counter-state';
import { textFromUnits, unitScale, unitsFromText } from '../../domain/delivery/exact-units';
import { InvalidRequest, WriteConflict } from '../../domain/errors';
import type { Metric, Period } from '../../domain/limits/metrics';
import type { ItemKey } from '../../table/keys';
import type { Item, TableStore } from './table-store';
import { anyOf, atMost, attributeAbsent, below, equals, UpdateBuilder } from './update-expression';
import { allOf, attributeExists } from './expression-conditions';
import { shardCountOf } from '../../domain/delivery/counter-shards';
import type { CapOnCounter } from '../../domain/delivery/limit-reached';
import {
  CAPS_ATTRIBUTE,
  counterAttribute,
  keyAttribute,
  MARKER_PREFIX,
  markerAttribute,
  QUIET_IMPRESSIONS_ATTRIBUTE as QUIET_IMPRESSIONS,
  QUIET_SINCE_ATTRIBUTE as QUIET_SINCE,
  FIRST_IMPRESSION_ATTRIBUTE as FIRST_IMPRESSION,
  SHARDS_ATTRIBUTE,
  TALLY_ATTRIBUTE,
  TALLY_SINCE_ATTRIBUTE,
  RESET_AT_ATTRIBUTE,
} from './counter-attributes';
import { markerBytes, markerFromBytes } from './marker-bytes';

type Update = UpdateInput;

const TOTAL_KEY = 'T';

/** Decimal text of a stored number, whichever way the store handed it over (a number, or a NumberValue). */
const numberText = (value: unknown): string | undefined =>
  value === undefined || value === null ? undefined : String(value);

/** Units of a stored counter; a whole number the store handed over as a JavaScript number skips the decimal text. */
const storedUnits = (value: unknown, scale: bigint): bigint | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
    ? BigInt(value) * scale
    : value === undefined || value === null
      ? undefined
      : unitsFromText(String(value), scale);

/**
 * The markers of the message groups a counter item applied, by group. Only a write needs them (a read needs the
 * counters alone), and decoding them is most of the cost of reading an item that holds many.
 */
export const appliedMarkers = (item: Item | undefined): Record<string, string> => {
  const applied: Record<string, string> = {};
  for (const [name, value] of Object.entries(item ?? {})) {
    const marker = name.startsWith(MARKER_PREFIX) ? markerFromBytes(value) : undefined;
    if (marker !== undefined) applied[name.slice(MARKER_PREFIX.length)] = marker;
  }
  return applied;
};

/**
 * A counter item's counters and no-conversion state as the domain sees them, without its markers (`applied` is
 * empty: see `appliedMarkers`); an absent item is empty. Never fails on what it finds.
 */
export const counterState = (
  item: Item | undefined,
  periods: readonly Period[],
  metrics: readonly Metric[],
): CounterState => {
  if (!item) return EMPTY_COUNTERS;
  const state: CounterState = { keys: {}, counters: {}, applied: {}, impressionsSinceConversion: 0n };
  for (const period of periods) {
    const key = period === 'total' ? TOTAL_KEY : item[keyAttribute(period)];
    if (typeof key === 'string') state.keys[period] = key;
    const tally: Tally = {};
    for (const metric of metrics) {
      const units = storedUnits(item[counterAttribute(period, metric)], unitScale(metric));
      if (units !== undefined) tally[metric] = units;
    }
    if (Object.keys(tally).length > 0) state.counters[period] = tally;
  }
  const quietSince = Number(numberText(item[QUIET_SINCE]));
  if (Number.isFinite(quietSince)) state.quietSince = quietSince;
  const firstImpressionAt = Number(numberText(item[FIRST_IMPRESSION]));
  if (Number.isFinite(firstImpressionAt)) state.firstImpressionAt = firstImpressionAt;
  state.impressionsSinceConversion = storedUnits(item[QUIET_IMPRESSIONS], 1n) ?? 0n;
  return state;
};

const exactValue = (units: bigint, metric: Metric) => NumberValue.from(textFromUnits(units, unitScale(metric)));

const periodWrites = (update: UpdateBuilder, write: CounterWrite) => {
  for (const [period, change] of Object.entries(write.periods) as [
    Period,
    NonNullable<CounterWrite['periods'][Period]>,
  ][]) {
    if (change.mode === 'add')
      for (const [metric, units] of Object.entries(change.tally) as [Metric, bigint][])
        update.add(counterAttribute(period, metric), exactValue(units, metric));
    else
      for (const metric of write.metrics)
        update.set(counterAttribute(period, metric), exactValue(change.tally[metric] ?? 0n, metric));
    if (period === 'total') continue;
    const keyName = keyAttribute(period);
    update.set(keyName, change.key);
    const expected = change.expect.key;
    update.require(
      change.expect.kind === 'absentOr'
        ? anyOf(attributeAbsent(keyName), equals(keyName, expected))
        : expected === null
          ? attributeAbsent(keyName)
          : equals(keyName, expected),
    );
  }
};

const sequenceWrites = (update: UpdateBuilder, write: CounterWrite) => {
  for (const [group, { expect, record }] of Object.entries(write.sequences)) {
    const attribute = markerAttribute(group);
    update.set(attribute, markerBytes(record));
    update.require(
      expect.kind === 'absentOrBelow'
        ? anyOf(attributeAbsent(attribute), below(attribute, markerBytes(expect.sequence)))
        : expect.kind === 'presentBelow'
          ? allOf(attributeExists(attribute), below(attribute, markerBytes(expect.sequence)))
          : expect.sequence === null
            ? attributeAbsent(attribute)
            : equals(attribute, markerBytes(expect.sequence)),
    );
  }
};

const instantCondition = (attribute: string, expect: InstantExpectation) =>
  expect.kind === 'absentOrAtMost'
    ? anyOf(attributeAbsent(attribute), atMost(attribute, expect.at))
    : expect.at === null
      ? attributeAbsent(attribute)
      : equals(attribute, expect.at);

const noConversionWrites = (update: UpdateBuilder, noConversion: NoConversionWrite) => {
  const { mode, quietSince, impressions, keepsImpressions, expect, qfExpect, firstImpression } = noConversion;
  const count = NumberValue.from(String(impressions));
  if (mode === 'set') {
    update.set(QUIET_SINCE, quietSince!);
    if (keepsImpressions) {
      if (impressions > 0n) update.add(QUIET_IMPRESSIONS, count);
    } else update.set(QUIET_IMPRESSIONS, count);
    update.remove(FIRST_IMPRESSION);
  } else if (impressions > 0n) update.add(QUIET_IMPRESSIONS, count);
  update.require(instantCondition(QUIET_SINCE, expect));
  if (qfExpect) update.require(instantCondition(FIRST_IMPRESSION, qfExpect));
  if (!firstImpression) return;
  if (firstImpression.expect.kind === 'absentOrAtMost') update.setIfAbsent(FIRST_IMPRESSION, firstImpression.at);
  else update.set(FIRST_IMPRESSION, firstImpression.at);
  update.require(instantCondition(FIRST_IMPRESSION, firstImpression.expect));
};

/** The set caps of a write, as the item stores them: by the attribute of the counter each caps. */
const storedCaps = (caps: readonly CapOnCounter[]): Record<string, number> =>
  Object.fromEntries(
    caps.filter((cap) => cap.value > 0).map((cap) => [counterAttribute(cap.period, cap.metric), cap.value]),
  );

/**
 * The UpdateItem of a planned write: ADDs and SETs with the conditions that make it apply exactly once, and, when
 * given, the caps it is judged against (none: removed), so that the stream record of this very update tells a
 * crossing; `requireUnsharded` (shard 0 of an entity the writer takes as unsharded) fails it once the entity has
 * shards, and `tallyAt` counts the write in the item's write tally (automatic sharding). Pure.
 */
export const counterWriteRequest = (
  key: ItemKey,
  write: CounterWrite,
  caps?: readonly CapOnCounter[],
  shard: { requireUnsharded?: boolean; tallyAt?: number } = {},
): Update => {
  const update = new UpdateBuilder();
  if (shard.requireUnsharded) update.require(attributeAbsent(SHARDS_ATTRIBUTE));
  if (shard.tallyAt !== undefined) update.add(TALLY_ATTRIBUTE, 1).setIfAbsent(TALLY_SINCE_ATTRIBUTE, shard.tallyAt);
  periodWrites(update, write);
  sequenceWrites(update, write);
  for (const { group, marker } of write.prune)
    update.remove(markerAttribute(group)).require(equals(markerAttribute(group), markerBytes(marker)));
  if (write.noConversion) noConversionWrites(update, write.noConversion);
  const stored = caps && storedCaps(caps);
  if (stored && Object.keys(stored).length > 0) update.set(CAPS_ATTRIBUTE, stored);
  else if (stored) update.remove(CAPS_ATTRIBUTE);
  return {
    Key: key,
    ...update.build(),
    ReturnValues: 'UPDATED_NEW',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
};

/** Races on one item are short: each lost one brings the item back, and the next write is planned from it. */
const MAX_ATTEMPTS = 8;

export interface AppliedCounterWrite {
  write?: CounterWrite;
  /** The attributes the write set, as they are now. */
  after: Item;
  /** Messages the item had already applied. */
  skipped: PendingMessage[];
}

/**
 * Message groups one write takes: each adds its marker and its condition to the request, which DynamoDB holds to
 * 4 KB of condition (a batch from SQS FIFO has at most 10 messages; a larger one is split).
 */
const GROUPS_PER_WRITE = 16;

const byGroupChunks = (pending: readonly PendingMessage[]): PendingMessage[][] => {
  const groups = [...new Set(pending.map((message) => message.group))];
  if (groups.length <= GROUPS_PER_WRITE) return [[...pending]];
  const chunks: PendingMessage[][] = [];
  for (let start = 0; start < groups.length; start += GROUPS_PER_WRITE) {
    const chunk = new Set(groups.slice(start, start + GROUPS_PER_WRITE));
    chunks.push(pending.filter((message) => chunk.has(message.group)));
  }
  return chunks;
};

/** Shard 0 of an entity the writer took as unsharded has shards: the write is to be planned again, by shard. */
export class EntityIsSharded extends Error {
  constructor(readonly shards: number) {
    super(`The entity's counters have ${shards} shards`);
    this.name = 'EntityIsSharded';
  }
}

/** How one counter item is written, beyond its messages. */
export interface CounterItemWrite {
  now?: Date;
  /** The caps the write is judged against, stored with it (see `counterWriteRequest`). */
  caps?: readonly CapOnCounter[];
  /** Shard 0 written by a recorder that takes the entity as unsharded: fails with `EntityIsSharded` if it is not. */
  requireUnsharded?: boolean;
  /** Counts the write in the item's write tally, at this instant (ms). */
  tallyAt?: number;
  /**
   * A shard n ≥ 1: reads the markers its groups left on shard 0 before the entity was sharded. Its first write
   * requires each group's marker on the shard; a group new there makes it fail, and the floors are read then.
   */
  floors?: () => Promise<Readonly<Record<string, string>>>;
}

const shardsOf = (current: Item | undefined): number => shardCountOf(current?.[SHARDS_ATTRIBUTE]);

const applyOnce = async (
  store: TableStore,
  key: ItemKey,
  pending: readonly PendingMessage[],
  periods: readonly Period[],
  metrics: readonly Metric[],
  options: CounterItemWrite,
): Promise<AppliedCounterWrite> => {
  const { now, caps, requireUnsharded = false, tallyAt, floors } = options;
  let state: CounterState | undefined;
  let shard: ShardWriteOptions = floors ? { unread: 'presentBelow' } : {};
  for (let attempt = 1; ; attempt++) {
    const write = planCounterWrite(state, pending, periods, metrics, now, shard);
    if (!write) return { after: {}, skipped: [...pending] };
    const request = counterWriteRequest(key, write, caps, {
      requireUnsharded,
      ...(tallyAt !== undefined ? { tallyAt } : {}),
    });
    try {
      return { write, after: (await store.update(request)) ?? {}, skipped: write.skipped };
    } catch (error) {
      if (error instanceof InvalidRequest) error.request = request;
      if (!(error instanceof WriteConflict) || attempt >= MAX_ATTEMPTS) throw error;
      if (requireUnsharded && shardsOf(error.current) > 1) throw new EntityIsSharded(shardsOf(error.current));
      state = { ...counterState(error.current, periods, metrics), applied: appliedMarkers(error.current) };
      const applied = state.applied;
      if (floors && !shard.floors && pending.some((message) => applied[message.group] === undefined))
        shard = { floors: await floors() };
    }
  }
};

/**
 * Applies pending messages to one counter item exactly once: a first write without a read, then, for as long as a
 * condition fails, a write planned from the item DynamoDB returned with the failure. Messages of more groups than
 * one request holds are written in several requests, whole groups each; the answer is the last write's.
 */
export const applyToCounterItem = async (
  store: TableStore,
  key: ItemKey,
  pending: readonly PendingMessage[],
  periods: readonly Period[],
  metrics: readonly Metric[],
  options: CounterItemWrite = {},
): Promise<AppliedCounterWrite> => {
  let applied: AppliedCounterWrite = { after: {}, skipped: [] };
  const skipped: PendingMessage[] = [];
  for (const chunk of byGroupChunks(pending)) {
    const result = await applyOnce(store, key, chunk, periods, metrics, options);
    skipped.push(...result.skipped);
    if (result.write) applied = result;
  }
  return { ...applied, skipped };
};

/**
 * Sets named counters of the periods the item is in now to 0 (a reset), conditioned on the periods read, and
 * records when (`resetAt`).
 */
export const zeroCountersRequest = (
  key: ItemKey,
  state: CounterState,
  zeroes: readonly { period: Period; metric: Metric }[],
  noConversion: { quietSince?: number; impressions?: boolean },
  currentKeys: Partial<Record<Period, string>>,
  resetAt: number,
): (Update & { UpdateExpression: string }) | undefined => {
  const update = new UpdateBuilder();
  const zeroed = new Set<string>();
  for (const { period, metric } of zeroes) {
    // a period the item has not reached yet, or has left, already reads as 0
    const stored = state.keys[period];
    const attribute = counterAttribute(period, metric);
    if (stored === undefined || stored !== currentKeys[period] || zeroed.has(attribute)) continue;
    zeroed.add(attribute);
    update.set(attribute, 0);
    if (period !== 'total' && !zeroed.has(period)) update.require(equals(keyAttribute(period), stored));
    zeroed.add(period);
  }
  if (noConversion.quietSince !== undefined) update.set(QUIET_SINCE, noConversion.quietSince);
  if (noConversion.impressions) update.set(QUIET_IMPRESSIONS, 0);
  if (update.isEmpty) return undefined;
  update.set(RESET_AT_ATTRIBUTE, resetAt);
  return { Key: key, ...update.build() };
};
