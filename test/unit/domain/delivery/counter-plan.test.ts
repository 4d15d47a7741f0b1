import { describe, expect, it } from 'vitest';
import type { Contribution } from '../../../../shared/domain/delivery/contributions';
import { planCounterWrite, sequenceText, type PendingMessage } from '../../../../shared/domain/delivery/counter-plan';
import type { CounterState, Tally } from '../../../../shared/domain/delivery/counter-state';
import { counterStateWith } from './counter-state-fixture';
import { METRICS, PERIODS, type Period } from '../../../../shared/domain/limits/cap-axes';

const message = (
  sequence: number,
  periods: Partial<Record<Period, [string, Tally]>>,
  extra: Partial<Contribution> = {},
  group = 'g',
): PendingMessage => ({
  messageId: `m${sequence}`,
  group,
  sequence: sequenceText(sequence),
  contribution: {
    target: { type: 'CAMPAIGN', id: 100 },
    periods: Object.fromEntries(
      Object.entries(periods).map(([period, [key, tally]]) => [period, new Map([[key, tally]])]),
    ),
    impressions: [],
    conversions: [],
    ...extra,
  },
});
const plan = (state: CounterState | undefined, pending: PendingMessage[]) =>
  planCounterWrite(state, pending, { periods: PERIODS, metrics: METRICS });
const state = counterStateWith;

describe('planning a counter write', () => {
  it('first assumes, without a read, that the item is at the batch period and has applied none of its messages', () => {
    const write = plan(undefined, [
      message(5, { daily: ['D#2026-11-22', { clicks: 2n }] }),
      message(7, { daily: ['D#2026-11-22', { clicks: 3n }] }),
    ])!;
    expect(write.periods.daily).toEqual({
      slots: { current: { mode: 'add', key: 'D#2026-11-22', tally: { clicks: 5n } } },
      expect: { current: { kind: 'absentOr', key: 'D#2026-11-22' } },
    });
    // every group's marker on the item and below the batch, or no item at all (then it starts counting its markers)
    expect(write.sequences).toEqual({
      g: { expect: { kind: 'presentBelow', sequence: sequenceText(5) }, record: sequenceText(7) },
    });
    expect(write.inlineCount).toEqual({ kind: 'required' });
    expect(write.newItemInline).toBe(1);
    expect(write.beside).toEqual({});
  });

  it('skips, from the item it reads back, every message at or below its sequence for the group', () => {
    const pending = [message(5, { total: ['T', { clicks: 2n }] }), message(7, { total: ['T', { clicks: 3n }] })];
    const write = plan(state({ keys: { total: 'T' }, applied: { g: sequenceText(5) } }), pending)!;
    expect(write.applies.map((m) => m.messageId)).toEqual(['m7']);
    expect(write.skipped.map((m) => m.messageId)).toEqual(['m5']);
    expect(write.periods.total).toEqual({
      slots: { current: { mode: 'add', key: 'T', tally: { clicks: 3n } } },
      expect: {},
    });
    expect(write.sequences.g!.expect).toEqual({ kind: 'exactly', sequence: sequenceText(5) });
    expect(plan(state({ applied: { g: sequenceText(7) } }), pending)).toBeUndefined();
  });

  it('keeps groups apart', () => {
    const write = plan(state({ applied: { g: sequenceText(9) } }), [
      message(5, { total: ['T', { clicks: 2n }] }, {}, 'h'),
    ])!;
    expect(write.applies).toHaveLength(1);
    expect(write.sequences.h!.expect).toEqual({ kind: 'exactly', sequence: null });
  });

  it('moves the current period to the previous slot, with its counters as read and the late events of it', () => {
    const pending = [
      message(1, { daily: ['D#2026-11-21', { clicks: 4n }] }),
      message(2, { daily: ['D#2026-11-22', { clicks: 1n }] }),
    ];
    const yesterday = state({ keys: { daily: 'D#2026-11-21' }, counters: { daily: { clicks: 50n } } });
    expect(plan(yesterday, pending)!.periods.daily).toEqual({
      slots: {
        current: { mode: 'set', key: 'D#2026-11-22', tally: { clicks: 1n } },
        previous: { mode: 'set', key: 'D#2026-11-21', tally: { clicks: 54n } },
      },
      expect: {
        current: { kind: 'exactly', key: 'D#2026-11-21' },
        previous: { kind: 'exactly', key: null },
      },
      copied: [{ from: 'current', tally: { clicks: 50n } }],
    });
    // unread, the batch's two days go to the two slots, each on condition that it holds that day or none
    expect(plan(undefined, pending)!.periods.daily).toEqual({
      slots: {
        current: { mode: 'add', key: 'D#2026-11-22', tally: { clicks: 1n } },
        previous: { mode: 'add', key: 'D#2026-11-21', tally: { clicks: 4n } },
      },
      expect: {
        current: { kind: 'absentOr', key: 'D#2026-11-22' },
        previous: { kind: 'absentOr', key: 'D#2026-11-21' },
      },
    });
  });

  it("counts a late event in its own day while that is the item's previous one, and nowhere older than both", () => {
    const twoDays = state({
      keys: { daily: 'D#2026-11-22' },
      counters: { daily: { clicks: 7n } },
      previous: { daily: { key: 'D#2026-11-21', tally: { clicks: 50n } } },
    });
    expect(plan(twoDays, [message(3, { daily: ['D#2026-11-21', { clicks: 9n }] })])!.periods.daily).toEqual({
      slots: { previous: { mode: 'add', key: 'D#2026-11-21', tally: { clicks: 9n } } },
      expect: { previous: { kind: 'exactly', key: 'D#2026-11-21' } },
    });
    const older = plan(twoDays, [message(4, { daily: ['D#2026-11-20', { clicks: 9n }] })]);
    expect(older!.periods.daily).toBeUndefined();
    // a day between the two slots' is later than the previous one: it takes its slot, and the older is pruned
    const gap = state({ ...twoDays, previous: { daily: { key: 'D#2026-11-19', tally: { clicks: 50n } } } });
    expect(plan(gap, [message(5, { daily: ['D#2026-11-20', { clicks: 2n }] })])!.periods.daily).toEqual({
      slots: { previous: { mode: 'set', key: 'D#2026-11-20', tally: { clicks: 2n } } },
      expect: { previous: { kind: 'exactly', key: 'D#2026-11-19' } },
    });
    // an event early for tomorrow moves both: today to the previous slot, yesterday pruned
    expect(plan(twoDays, [message(6, { daily: ['D#2026-11-23', { clicks: 1n }] })])!.periods.daily).toEqual({
      slots: {
        current: { mode: 'set', key: 'D#2026-11-23', tally: { clicks: 1n } },
        previous: { mode: 'set', key: 'D#2026-11-22', tally: { clicks: 7n } },
      },
      expect: {
        current: { kind: 'exactly', key: 'D#2026-11-22' },
        previous: { kind: 'exactly', key: 'D#2026-11-21' },
      },
      copied: [{ from: 'current', tally: { clicks: 7n } }],
    });
  });

  it('restarts the impressions since the last conversion at a conversion, and defers to a later stored one', () => {
    const impressions = [
      { at: 10, count: 5n },
      { at: 30, count: 2n },
    ];
    const batch = [message(1, {}, { impressions, conversions: [20] })];
    expect(plan(undefined, batch)!.noConversion).toEqual({
      mode: 'set',
      quietSince: 20,
      impressions: 2n,
      expect: { kind: 'absentOrAtMost', at: 20 },
      qfExpect: { kind: 'absentOrAtMost', at: 20 },
    });
    expect(plan(state({ quietSince: 25 }), batch)!.noConversion).toEqual({
      mode: 'add',
      impressions: 2n,
      expect: { kind: 'exactly', at: 25 },
    });
    expect(plan(undefined, [message(1, {}, { impressions })])!.noConversion).toEqual({
      mode: 'add',
      impressions: 7n,
      expect: { kind: 'absentOrAtMost', at: 10 },
      firstImpression: { at: 10, expect: { kind: 'absentOrAtMost', at: 10 } },
    });
  });

  it('never counts impressions dated before the stored last conversion, whatever the arrival order', () => {
    const late = [
      message(
        3,
        {},
        {
          impressions: [
            { at: 5, count: 50n },
            { at: 40, count: 1n },
          ],
        },
      ),
    ];
    // unread, the write assumes every impression at or after the stored conversion, and says so
    expect(plan(undefined, late)!.noConversion).toMatchObject({ expect: { kind: 'absentOrAtMost', at: 5 } });
    // read back, only those dated at or after it count, on condition that it is still the one read
    expect(plan(state({ quietSince: 20 }), late)!.noConversion).toEqual({
      mode: 'add',
      impressions: 1n,
      expect: { kind: 'exactly', at: 20 },
    });
  });

  it('moves the first impression earlier while no conversion came, counting every impression', () => {
    const late = [message(3, {}, { impressions: [{ at: 5, count: 50n }] })];
    expect(plan(state({ firstImpressionAt: 10, impressionsSinceConversion: 1n }), late)!.noConversion).toEqual({
      mode: 'add',
      impressions: 50n,
      expect: { kind: 'exactly', at: null },
      firstImpression: { at: 5, expect: { kind: 'exactly', at: 10 } },
    });
    expect(plan(state({ firstImpressionAt: 1 }), late)!.noConversion).toEqual({
      mode: 'add',
      impressions: 50n,
      expect: { kind: 'exactly', at: null },
    });
    // a conversion earlier than the first impression: the quiet time starts at it, and the stored impressions,
    // all dated after it, stay impressions since it
    const conversion = [message(4, {}, { conversions: [2] })];
    expect(plan(state({ firstImpressionAt: 10 }), conversion)!.noConversion).toEqual({
      mode: 'set',
      quietSince: 2,
      impressions: 0n,
      keepsImpressions: true,
      expect: { kind: 'exactly', at: null },
      qfExpect: { kind: 'exactly', at: 10 },
    });
    expect(plan(state({ firstImpressionAt: 10 }), [message(4, {}, { conversions: [12] })])!.noConversion).toEqual({
      mode: 'set',
      quietSince: 12,
      impressions: 0n,
      expect: { kind: 'exactly', at: null },
      qfExpect: { kind: 'exactly', at: 10 },
    });
  });

  it('counts an impression at the instant the quiet time began, whether or not the item was read first', () => {
    const batch = [message(2, {}, { impressions: [{ at: 10, count: 1n }] })];
    expect(plan(undefined, batch)!.noConversion).toMatchObject({ mode: 'add', impressions: 1n });
    expect(plan(state({ quietSince: 10, applied: { g: sequenceText(1) } }), batch)!.noConversion).toMatchObject({
      mode: 'add',
      impressions: 1n,
    });
  });
});
