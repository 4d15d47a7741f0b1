import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  planCounterWrite,
  sequenceText,
  type CounterWrite,
  type KeyExpectation,
  type PendingMessage,
} from '../../../../shared/domain/delivery/counter-plan';
import { slotsOf, type CounterState, type Slot, type Tally } from '../../../../shared/domain/delivery/counter-state';
import { bucketOf } from '../../../../shared/domain/limits/periods';
import { METRICS, PERIODS, type Metric } from '../../../../shared/domain/limits/cap-axes';
import { countInSlots, type ModelSlots } from '../../../model/counter-model';
import { periodKey } from '../../../model/calendar';
import { counterStateWith } from './counter-state-fixture';

/**
 * The planner's two slots per period against the reference model's (`countInSlots`): events dated either side of
 * a day's, a week's, a month's and a year's edge, in any order and any batches, each batch written as the recorder
 * writes it (unread first; when a condition fails, planned again from the item), come to the model's counters.
 */
const EDGES = ['2026-11-26T00:00:00Z', '2026-11-30T00:00:00Z', '2026-12-01T00:00:00Z', '2027-01-01T00:00:00Z'].map(
  Date.parse,
);
const MINUTE = 60_000;

const keyHolds = (state: CounterState, period: (typeof PERIODS)[number], slot: Slot, expect: KeyExpectation) => {
  const held = slotsOf(state, period).find((candidate) => candidate.slot === slot)?.key;
  return expect.kind === 'absentOr' ? held === undefined || held === expect.key : (held ?? null) === expect.key;
};

const sameTally = (a: Tally | undefined, b: Tally) => METRICS.every((metric) => a?.[metric] === b[metric]);

/** What DynamoDB does with the planned write on an item in `state`: the item after it, or `undefined` (refused). */
const applied = (state: CounterState, write: CounterWrite): CounterState | undefined => {
  for (const [group, { expect }] of Object.entries(write.sequences)) {
    const held = state.applied[group];
    if (expect.kind === 'absentOrBelow' ? held !== undefined && held >= expect.sequence : false) return undefined;
    if (expect.kind === 'exactly' && (held ?? null) !== expect.sequence) return undefined;
  }
  for (const [period, change] of Object.entries(write.periods) as [
    (typeof PERIODS)[number],
    NonNullable<CounterWrite['periods']['daily']>,
  ][]) {
    for (const [slot, expect] of Object.entries(change.expect) as [Slot, KeyExpectation][])
      if (!keyHolds(state, period, slot, expect)) return undefined;
    for (const { from, tally } of change.copied ?? [])
      if (!sameTally(slotsOf(state, period).find((held) => held.slot === from)?.tally, tally)) return undefined;
  }
  const next: CounterState = structuredClone(state);
  for (const [period, change] of Object.entries(write.periods) as [
    (typeof PERIODS)[number],
    NonNullable<CounterWrite['periods']['daily']>,
  ][])
    for (const [slot, { mode, key, tally }] of Object.entries(change.slots) as [
      Slot,
      NonNullable<typeof change.slots.current>,
    ][]) {
      const before = slotsOf(state, period).find((held) => held.slot === slot)?.tally ?? {};
      const after: Tally =
        mode === 'set' ? Object.fromEntries(write.metrics.map((metric) => [metric, 0n])) : { ...before };
      for (const [metric, units] of Object.entries(tally) as [Metric, bigint][])
        after[metric] = (mode === 'set' ? 0n : (after[metric] ?? 0n)) + units;
      if (slot === 'current') {
        next.keys[period] = key;
        next.counters[period] = after;
      } else (next.previous ??= {})[period] = { key, tally: after };
    }
  for (const [group, { record }] of Object.entries(write.sequences)) next.applied[group] = record;
  return next;
};

/** One batch as the recorder writes it: unread first, then planned from the item while a condition fails. */
const write = (state: CounterState, batch: PendingMessage[]): CounterState => {
  let read: CounterState | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const planned = planCounterWrite(read, batch, { periods: PERIODS, metrics: METRICS });
    if (!planned) return state;
    const after = applied(state, planned);
    if (after) return after;
    read = state;
  }
  throw new Error('a write planned from the item it read was refused');
};

const message = (sequence: number, at: number, clicks: bigint): PendingMessage => ({
  messageId: `m${sequence}`,
  group: `g${sequence % 3}`,
  sequence: sequenceText(sequence),
  contribution: {
    target: { type: 'CAMPAIGN', id: 1 },
    periods: Object.fromEntries(
      PERIODS.map((period) => [period, new Map([[bucketOf(period, new Date(at)), { clicks }]])]),
    ),
    impressions: [],
    conversions: [],
  },
});

const nonZero = (tally: Tally | undefined) =>
  Object.fromEntries(Object.entries(tally ?? {}).filter(([, units]) => units !== 0n));

const storedSlots = (state: CounterState) =>
  Object.fromEntries(
    PERIODS.map((period) => [
      period,
      slotsOf(state, period).map(({ slot, key, tally }) => ({ slot, key, counts: nonZero(tally) })),
    ]),
  );

const modelSlots = (slots: Record<string, ModelSlots>) =>
  Object.fromEntries(
    PERIODS.map((period) => [
      period,
      (['current', 'previous'] as const).flatMap((slot) => {
        const held = slots[period]?.[slot];
        return held ? [{ slot, key: held.key, counts: nonZero(held.counts as Tally) }] : [];
      }),
    ]),
  );

const events = fc.array(
  fc.record({
    edge: fc.constantFrom(...EDGES),
    minutes: fc.oneof(fc.integer({ min: -10, max: 10 }), fc.integer({ min: -3 * 24 * 60, max: 3 * 24 * 60 })),
    clicks: fc.integer({ min: 1, max: 5 }).map(BigInt),
    order: fc.nat(),
    batchBreak: fc.boolean(),
  }),
  { minLength: 1, maxLength: 12 },
);

describe('a period edge, through the planner', () => {
  it('comes to the model in any order and any batches of events either side of an edge', () => {
    fc.assert(
      fc.property(events, (list) => {
        const model: Record<string, ModelSlots> = {};
        for (const { edge, minutes, clicks } of list)
          for (const period of PERIODS)
            model[period] = countInSlots(model[period], periodKey(period, edge + minutes * MINUTE), { clicks });
        // FIFO: a group's messages arrive in sequence order, so sequences follow the arrival order
        const arrived = [...list]
          .sort((a, b) => a.order - b.order)
          .map((event, index) => ({
            ...event,
            message: message(index + 1, event.edge + event.minutes * MINUTE, event.clicks),
          }));
        let state = counterStateWith({});
        let batch: PendingMessage[] = [];
        for (const { message: next, batchBreak } of arrived) {
          batch.push(next);
          if (batchBreak) [state, batch] = [write(state, batch), []];
        }
        if (batch.length > 0) state = write(state, batch);
        expect(storedSlots(state)).toEqual(modelSlots(model));
      }),
      { numRuns: 500 },
    );
  });
});
