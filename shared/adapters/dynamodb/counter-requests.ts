import { NumberValue, type TransactItem, type TransactWriteInput, type UpdateInput } from './attribute-values';
import type {
  CounterWrite,
  InstantExpectation,
  KeyExpectation,
  NoConversionWrite,
  PeriodWrite,
  SlotWrite,
} from '../../domain/delivery/counter-plan';
import { slotsOf, type CounterState, type Slot, type Tally } from '../../domain/delivery/counter-state';
import { textFromUnits, unitScale } from '../../domain/delivery/exact-units';
import type { Metric, Period } from '../../domain/limits/cap-axes';
import type { ItemKey } from '../../table/keys';
import { anyOf, atMost, attributeAbsent, below, equals, UpdateBuilder } from './expressions';
import { headroomGuards, marksNearCap } from '../../domain/delivery/headroom';
import type { CapOnCounter } from '../../domain/delivery/limit-reached';
import {
  CAPS_ATTRIBUTE,
  counterAttribute,
  NEAR_CAP_ATTRIBUTE,
  keyAttribute,
  QUIET_IMPRESSIONS_ATTRIBUTE as QUIET_IMPRESSIONS,
  QUIET_SINCE_ATTRIBUTE as QUIET_SINCE,
  FIRST_IMPRESSION_ATTRIBUTE as FIRST_IMPRESSION,
  TALLY_ATTRIBUTE,
  TALLY_SINCE_ATTRIBUTE,
  RESET_AT_ATTRIBUTE,
} from './counter-attributes';
import { besideMarkerRequest, counterMarkerWrites } from './group-marker-requests';
import { epochCondition, type ShardEpoch } from './shard-epoch';

type Update = UpdateInput;

const exactValue = (units: bigint, metric: Metric) => NumberValue.from(textFromUnits(units, unitScale(metric)));

const keyCondition = (keyName: string, expect: KeyExpectation) =>
  expect.kind === 'absentOr'
    ? anyOf(attributeAbsent(keyName), equals(keyName, expect.key))
    : expect.key === null
      ? attributeAbsent(keyName)
      : equals(keyName, expect.key);

/** A slot's counters as read, which a write copies into the other slot: each as read, or still absent. */
const countersAsRead = (period: Period, { from, tally }: { from: Slot; tally: Tally }, metrics: readonly Metric[]) =>
  metrics.map((metric) => {
    const attribute = counterAttribute(period, metric, from);
    const units = tally[metric];
    return units === undefined ? attributeAbsent(attribute) : equals(attribute, exactValue(units, metric));
  });

const periodWrites = (update: UpdateBuilder, write: CounterWrite) => {
  for (const [period, change] of Object.entries(write.periods) as [Period, PeriodWrite][]) {
    for (const [slot, { mode, key, tally }] of Object.entries(change.slots) as [Slot, SlotWrite][]) {
      if (mode === 'add')
        for (const [metric, units] of Object.entries(tally) as [Metric, bigint][])
          update.add(counterAttribute(period, metric, slot), exactValue(units, metric));
      else
        for (const metric of write.metrics)
          update.set(counterAttribute(period, metric, slot), exactValue(tally[metric] ?? 0n, metric));
      if (period !== 'total') update.set(keyAttribute(period, slot), key);
    }
    for (const [slot, expect] of Object.entries(change.expect) as [Slot, KeyExpectation][])
      update.require(keyCondition(keyAttribute(period, slot), expect));
    for (const copied of change.copied ?? [])
      for (const condition of countersAsRead(period, copied, write.metrics)) update.require(condition);
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

/**
 * How the write tells the table's stream whether it may have made a counter reach a cap: `near` sets the mark; else
 * the write proves it did not (`headroomGuards`, each a condition that the counter was below its cap less what the
 * write adds) and removes the mark. A write that cannot prove it, or whose caps are not known here, marks itself.
 */
const streamMark = (
  update: UpdateBuilder,
  write: CounterWrite,
  caps: readonly CapOnCounter[] | undefined,
  near: boolean,
) => {
  if (marksNearCap(write, caps, near)) {
    update.set(NEAR_CAP_ATTRIBUTE, true);
    return;
  }
  for (const { period, metric, slot, belowUnits } of headroomGuards(write, caps!)!) {
    const attribute = counterAttribute(period, metric, slot);
    update.require(anyOf(attributeAbsent(attribute), below(attribute, exactValue(belowUnits, metric))));
  }
  update.remove(NEAR_CAP_ATTRIBUTE);
};

/** The set caps of a write, as the item stores them: by the attribute of the counter each caps. */
const storedCaps = (caps: readonly CapOnCounter[]): Record<string, number> =>
  Object.fromEntries(
    caps.filter((cap) => cap.value > 0).map((cap) => [counterAttribute(cap.period, cap.metric), cap.value]),
  );

/**
 * The UpdateItem of a planned write: ADDs and SETs with the conditions that make it apply exactly once, and, when
 * given, the caps it is judged against (none: removed), so that the stream record of this very update tells a
 * crossing, with the mark that lets the stream's trigger pass it when it may be one (`streamMark`; `near` marks it
 * without trying to prove otherwise); `epoch` (an entity's counter item) fails it once the entity's shard count is
 * not the one the writer routed with, and `tallyAt` counts the write in the item's write tally (automatic sharding),
 * and asks for the attributes it set back, the tally among them (otherwise nothing: the recorder reads no other). Pure.
 */
export const counterWriteRequest = (
  key: ItemKey,
  write: CounterWrite,
  caps?: readonly CapOnCounter[],
  shard: { epoch?: ShardEpoch; tallyAt?: number; near?: boolean } = {},
): Update => {
  const update = new UpdateBuilder();
  if (shard.epoch) update.require(epochCondition(shard.epoch));
  if (shard.tallyAt !== undefined) update.add(TALLY_ATTRIBUTE, 1).setIfAbsent(TALLY_SINCE_ATTRIBUTE, shard.tallyAt);
  periodWrites(update, write);
  counterMarkerWrites(update, write);
  if (write.noConversion) noConversionWrites(update, write.noConversion);
  const stored = caps && storedCaps(caps);
  if (stored && Object.keys(stored).length > 0) update.set(CAPS_ATTRIBUTE, stored);
  else if (stored) update.remove(CAPS_ATTRIBUTE);
  streamMark(update, write, caps, shard.near === true);
  return {
    Key: key,
    ...update.build(),
    ReturnValues: shard.tallyAt !== undefined ? 'UPDATED_NEW' : 'NONE',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
};

/**
 * A planned write that puts some groups' markers beside the item: one transaction of the item's update (as
 * `counterWriteRequest` builds it) and the UpdateItem of each of those groups' marker items. Pure.
 */
export const counterWriteTransaction = (
  tableName: string,
  request: UpdateInput,
  write: CounterWrite,
): TransactWriteInput => {
  // a transaction's update answers nothing: it is read again when the transaction is cancelled
  const update = Object.fromEntries(Object.entries(request).filter(([field]) => !field.startsWith('ReturnValues')));
  return {
    TransactItems: [
      { Update: { TableName: tableName, ...update } as NonNullable<TransactItem['Update']> },
      ...Object.entries(write.beside).map(([group, change]) => ({
        Update: { TableName: tableName, ...besideMarkerRequest(request.Key as ItemKey, group, change) },
      })),
    ],
  };
};

/** What a reset zeroes in one counter item, and when. */
export interface CounterReset {
  zeroes: readonly { period: Period; metric: Metric }[];
  noConversion: { quietSince?: number; impressions?: boolean };
  /** The periods the item is to be in now: a counter of another period already reads as 0. */
  currentKeys: Partial<Record<Period, string>>;
  resetAt: number;
}

/**
 * Sets named counters of the periods the item is in now to 0 (a reset), in the slot (current or previous) that holds
 * that period, conditioned on the slot's period as read, and records when (`resetAt`).
 */
export const zeroCountersRequest = (
  key: ItemKey,
  state: CounterState,
  { zeroes, noConversion, currentKeys, resetAt }: CounterReset,
): (Update & { UpdateExpression: string }) | undefined => {
  const update = new UpdateBuilder();
  const zeroed = new Set<string>();
  for (const { period, metric } of zeroes) {
    // only the slot of the period the item is in now: a period it holds in neither slot already reads as 0, the
    // other slot holds a period no longer read (earlier) or events dated after the reset (later)
    const slot = slotsOf(state, period).find(({ key }) => key === currentKeys[period])?.slot;
    if (slot === undefined) continue;
    const attribute = counterAttribute(period, metric, slot);
    if (zeroed.has(attribute)) continue;
    zeroed.add(attribute);
    update.set(attribute, 0);
    const keyName = keyAttribute(period, slot);
    if (period !== 'total' && !zeroed.has(keyName)) update.require(equals(keyName, currentKeys[period]!));
    zeroed.add(keyName);
  }
  if (noConversion.quietSince !== undefined) update.set(QUIET_SINCE, noConversion.quietSince);
  if (noConversion.impressions) update.set(QUIET_IMPRESSIONS, 0);
  if (update.isEmpty) return undefined;
  update.set(RESET_AT_ATTRIBUTE, resetAt);
  return { Key: key, ...update.build() };
};
