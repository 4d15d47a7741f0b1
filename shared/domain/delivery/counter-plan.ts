import type { Metric, Period } from '../limits/cap-axes';
import type { Contribution } from './contributions';
import { add, latestTwo, slotsOf, type CounterState, type Slot, type Tally } from './counter-state';
import { planGroupMarkers, type MarkerPlacement, type MarkerWrites, type ShardWriteOptions } from './group-markers';

/** A delivery message not yet known to be applied to a counter item, with its place in its message group. */
export interface PendingMessage {
  messageId: string;
  group: string;
  /** Fixed-width decimal text (see `sequenceText`), so that text order is delivery order. */
  sequence: string;
  contribution: Contribution;
  /** The queue delivered it before (SQS `ApproximateReceiveCount` above 1): most likely some item already holds it. */
  redelivered?: boolean;
}

/** An SQS FIFO sequence number: a decimal number of 128 bits at most, so of at most 40 digits. */
export const isSequenceNumber = (text: string): boolean => /^[0-9]{1,40}$/.test(text);

/** The SQS FIFO sequence number as fixed-width text: up to 40 digits, zero-padded. */
export const sequenceText = (sequence: string | number | bigint): string => String(sequence).padStart(40, '0');

export type KeyExpectation = { kind: 'absentOr'; key: string } | { kind: 'exactly'; key: string | null };

/** What one slot of a period gets: `add` to its counters, or `set` them all (the slot takes another period). */
export interface SlotWrite {
  mode: 'add' | 'set';
  key: string;
  tally: Tally;
}

/**
 * One period's change on an item that keeps its current and its previous period. `slots`: what each slot written
 * gets (the total has only `current`, with no key); `expect`: the key each written slot must hold; `copied`: when
 * the current period becomes the previous one, its counters as read, set in the previous slot, which the current
 * slot must still hold (a write that added to them since makes this one fail and plan again), and in an item whose
 * slots were ever out of order, the same the other way.
 */
export interface PeriodWrite {
  slots: Partial<Record<Slot, SlotWrite>>;
  expect: Partial<Record<Slot, KeyExpectation>>;
  copied?: { from: Slot; tally: Tally }[];
}

/** What the item's stored instant must be for the write to be the right one: absent or at most `at`, or exactly. */
export type InstantExpectation = { kind: 'absentOrAtMost'; at: number } | { kind: 'exactly'; at: number | null };

/**
 * The no-conversion state's change. `set`: a conversion starts the quiet time again at `quietSince` (`qs`) and the
 * impressions since it at `impressions`, or adds them (`keepsImpressions`: every stored impression is dated after
 * it); the first impression's instant (`qf`) is then removed. `add`: adds impressions dated at or after the stored
 * `qs`. `expect` holds the stored `qs` in place, `qfExpect` the stored `qf`; `firstImpression` moves `qf` earlier.
 */
export interface NoConversionWrite {
  mode: 'add' | 'set';
  quietSince?: number;
  impressions: bigint;
  keepsImpressions?: boolean;
  expect: InstantExpectation;
  qfExpect?: InstantExpectation;
  firstImpression?: { at: number; expect: InstantExpectation };
}

const DAY_MS = 86_400_000;

/**
 * SQS keeps a message at most 14 days: a message sent earlier can only come back from a dead-letter queue, and the
 * recorder refuses it (see `isPastRedeliveryHorizon`).
 */
export const REDELIVERY_HORIZON_MS = 14 * DAY_MS;
export const isPastRedeliveryHorizon = (sentAt: Date, now: Date): boolean =>
  now.getTime() - sentAt.getTime() > REDELIVERY_HORIZON_MS;

/** One conditional update of one counter item: applied once, whatever the platform redelivers. */
export interface CounterWrite extends MarkerWrites {
  applies: PendingMessage[];
  skipped: PendingMessage[];
  periods: Partial<Record<Period, PeriodWrite>>;
  noConversion?: NoConversionWrite;
  /** The metrics a `set` writes, zeros included, so that no counter of a previous period survives. */
  metrics: readonly Metric[];
}

/** A batch's counters of one period, by the period each message's events count in. */
const batchTallies = (period: Period, kept: readonly PendingMessage[]): Map<string, Tally> => {
  const byKey = new Map<string, Tally>();
  for (const message of kept)
    for (const [key, tally] of message.contribution.periods[period] ?? new Map<string, Tally>())
      byKey.set(key, add(byKey.get(key) ?? {}, tally));
  return byKey;
};

const SLOTS: readonly Slot[] = ['current', 'previous'];

/**
 * Unread, the write assumes the item holds the batch's latest period as its current one and its second latest (if
 * the batch has one) as the previous one, or nothing there yet, and says so in its conditions.
 */
const unreadPeriodWrite = (batch: Map<string, Tally>): PeriodWrite => {
  const write: PeriodWrite = { slots: {}, expect: {} };
  latestTwo(batch.keys()).forEach((key, index) => {
    const slot = SLOTS[index]!;
    write.slots[slot] = { mode: 'add', key, tally: batch.get(key)! };
    write.expect[slot] = { kind: 'absentOr', key };
  });
  return write;
};

/**
 * Read, the item keeps the two latest periods of those it holds and the batch's: a slot that keeps its period adds,
 * a slot that takes the period the other held sets its counters as read plus the batch's (the current one becomes
 * the previous one), and a slot that takes a period the item did not hold sets the batch's (the older one is pruned).
 * Every slot written, or copied from, is conditioned on its key as read.
 */
const readPeriodWrite = (batch: Map<string, Tally>, period: Period, state: CounterState): PeriodWrite | undefined => {
  const stored = slotsOf(state, period);
  const write: PeriodWrite = { slots: {}, expect: {} };
  latestTwo([...stored.map(({ key }) => key), ...batch.keys()]).forEach((key, index) => {
    const slot = SLOTS[index]!;
    const held = stored.find((candidate) => candidate.key === key);
    const added = batch.get(key) ?? {};
    if (held?.slot === slot) {
      if (Object.keys(added).length > 0) write.slots[slot] = { mode: 'add', key, tally: added };
    } else {
      write.slots[slot] = { mode: 'set', key, tally: add({ ...held?.tally }, added) };
      if (held) (write.copied ??= []).push({ from: held.slot, tally: held.tally });
    }
  });
  for (const slot of SLOTS)
    if (write.slots[slot] || write.copied?.some(({ from }) => from === slot))
      write.expect[slot] = { kind: 'exactly', key: stored.find((held) => held.slot === slot)?.key ?? null };
  return Object.keys(write.slots).length > 0 ? write : undefined;
};

const periodWrite = (
  period: Period,
  kept: readonly PendingMessage[],
  state: CounterState | undefined,
): PeriodWrite | undefined => {
  const batch = batchTallies(period, kept);
  for (const [key, tally] of batch) if (Object.keys(tally).length === 0) batch.delete(key);
  if (batch.size === 0) return undefined;
  if (period === 'total') return { slots: { current: { mode: 'add', key: 'T', tally: batch.get('T')! } }, expect: {} };
  return state ? readPeriodWrite(batch, period, state) : unreadPeriodWrite(batch);
};

const sumOf = (impressions: readonly { at: number; count: bigint }[], since: number | undefined) =>
  impressions.filter(({ at }) => since === undefined || at >= since).reduce((sum, { count }) => sum + count, 0n);

/** The first impression's instant, moved earlier when the batch has an earlier one; not needed once `qs` is known. */
const firstImpressionWrite = (first: number | undefined, state: CounterState | undefined) => {
  if (first === undefined || state?.quietSince !== undefined) return undefined;
  if (!state) return { at: first, expect: { kind: 'absentOrAtMost' as const, at: first } };
  const stored = state.firstImpressionAt;
  return stored === undefined || stored > first
    ? { at: first, expect: { kind: 'exactly' as const, at: stored ?? null } }
    : undefined;
};

/**
 * The no-conversion state by event time, whatever the batch and arrival order: impressions dated before the stored
 * last conversion (`qs`) never count as impressions since it. Unread, the write assumes that every impression of the
 * batch is at or after `qs` and says so in its condition; a late impression dated before it fails the condition, and
 * the write planned from the item counts only those at or after it.
 */
const noConversionWrite = (
  kept: readonly PendingMessage[],
  state: CounterState | undefined,
): NoConversionWrite | undefined => {
  const impressions = kept.flatMap((message) => message.contribution.impressions);
  const conversions = kept.flatMap((message) => message.contribution.conversions);
  if (impressions.length === 0 && conversions.length === 0) return undefined;
  const first = impressions.length > 0 ? Math.min(...impressions.map(({ at }) => at)) : undefined;
  const lastConversion = conversions.length > 0 ? Math.max(...conversions) : undefined;
  const stored = state?.quietSince;
  if (lastConversion === undefined || (stored !== undefined && stored > lastConversion)) {
    const firstImpression = lastConversion === undefined ? firstImpressionWrite(first, state) : undefined;
    return {
      mode: 'add',
      impressions: sumOf(impressions, stored),
      expect: state ? { kind: 'exactly', at: stored ?? null } : { kind: 'absentOrAtMost', at: first! },
      ...(firstImpression ? { firstImpression } : {}),
    };
  }
  // no conversion stored yet and every stored impression after this one: they are impressions since it
  const storedFirst = state?.firstImpressionAt;
  const keepsImpressions = state !== undefined && stored === undefined && storedFirst !== undefined;
  return {
    mode: 'set',
    quietSince: lastConversion,
    impressions: sumOf(impressions, lastConversion),
    ...(keepsImpressions && storedFirst >= lastConversion ? { keepsImpressions: true } : {}),
    expect: state ? { kind: 'exactly', at: stored ?? null } : { kind: 'absentOrAtMost', at: lastConversion },
    qfExpect: state ? { kind: 'exactly', at: storedFirst ?? null } : { kind: 'absentOrAtMost', at: lastConversion },
  };
};

/**
 * How to apply pending messages to one counter item exactly once. Without the item's state (`undefined`: the
 * first attempt, no read) the write assumes the item is at the batch's latest periods and has applied none of
 * the batch's messages, and says so in its conditions; when a condition fails, DynamoDB returns the item and the
 * write is planned again from it: messages at or below the item's sequence for their group are skipped, a period
 * the item has moved past keeps its counters (late events do not count there), and a period the batch has moved
 * past is replaced. Each group's marker goes on the item or beside it (`planGroupMarkers`). A shard's write takes
 * `shard` (see `ShardWriteOptions`), and how many markers the item holds itself (`MarkerPlacement`). Pure; `undefined` when nothing is left to apply.
 */
export const planCounterWrite = (
  state: CounterState | undefined,
  pending: readonly PendingMessage[],
  periods: readonly Period[],
  metrics: readonly Metric[],
  now?: Date,
  shard: ShardWriteOptions & MarkerPlacement = {},
): CounterWrite | undefined => {
  const isApplied = (message: PendingMessage) => {
    const applied = state?.applied[message.group] ?? state?.beside?.[message.group];
    const floor = shard.floors?.[message.group];
    return (applied !== undefined && applied >= message.sequence) || (floor !== undefined && floor >= message.sequence);
  };
  const kept = pending.filter((message) => !isApplied(message));
  if (kept.length === 0) return undefined;
  const groups = new Map<string, string[]>();
  for (const { group, sequence } of kept) groups.set(group, [...(groups.get(group) ?? []), sequence]);
  const markers = planGroupMarkers(state, groups, now, shard);
  const written: Partial<Record<Period, PeriodWrite>> = {};
  for (const period of periods) {
    const write = periodWrite(period, kept, state);
    if (write) written[period] = write;
  }
  const noConversion = noConversionWrite(kept, state);
  return {
    applies: kept,
    skipped: pending.filter(isApplied),
    periods: written,
    ...markers,
    metrics,
    ...(noConversion ? { noConversion } : {}),
  };
};
