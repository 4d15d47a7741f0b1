import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planCounterWrite, sequenceText, type PendingMessage } from '../../../../shared/domain/delivery/counter-plan';
import type { CounterState } from '../../../../shared/domain/delivery/counter-state';
import {
  INLINE_MARKERS_PER_ITEM,
  MARKER_HORIZON_MS,
  markerDay,
  markerSeenAt,
  markerText,
  planGroupMarkers,
  type MarkerWrites,
  type SequenceExpectation,
} from '../../../../shared/domain/delivery/group-markers';
import { counterStateWith } from './counter-state-fixture';

const DAY = 86_400_000;
const START = Date.parse('2026-11-01T12:00:00Z');

/**
 * A counter item and its marker items as DynamoDB would hold them, and what a planned write's conditions ask of
 * them (as `group-marker-requests.ts` states them): the test's own reading of a `MarkerWrites`.
 */
interface Stored {
  exists: boolean;
  inline: Map<string, string>;
  gn?: number;
  ov?: number;
  beside: Map<string, string>;
}

const meets = (stored: string | undefined, expect: SequenceExpectation): boolean =>
  expect.kind === 'exactly'
    ? (stored ?? null) === expect.sequence
    : expect.kind === 'presentBelow'
      ? stored !== undefined && stored < expect.sequence
      : stored === undefined || stored < expect.sequence;

const inlineHolds = (item: Stored, writes: MarkerWrites): boolean => {
  const count = writes.inlineCount;
  if (count?.kind === 'required' && item.gn === undefined) return false;
  if (count?.kind === 'set' && (item.gn ?? null) !== count.expect) return false;
  return Object.entries(writes.sequences).every(([group, { expect }]) => meets(item.inline.get(group), expect));
};

const holds = (item: Stored, writes: MarkerWrites): boolean => {
  const inline =
    writes.newItemInline !== undefined ? !item.exists || inlineHolds(item, writes) : inlineHolds(item, writes);
  const overflow = writes.overflow;
  const overflowHolds =
    !overflow ||
    ('upTo' in overflow ? item.ov === undefined || item.ov <= overflow.upTo : (item.ov ?? null) === overflow.expect);
  return (
    inline &&
    overflowHolds &&
    writes.prune.every(({ group, marker }) => item.inline.get(group) === marker) &&
    Object.entries(writes.beside).every(
      ([group, { expect }]) => !item.inline.has(group) && meets(item.beside.get(group), expect),
    )
  );
};

const apply = (item: Stored, writes: MarkerWrites): void => {
  if (writes.newItemInline !== undefined && item.gn === undefined) item.gn = writes.newItemInline;
  if (writes.inlineCount?.kind === 'set') item.gn = writes.inlineCount.count;
  item.exists = true;
  for (const [group, { record }] of Object.entries(writes.sequences)) item.inline.set(group, record);
  for (const { group } of writes.prune) item.inline.delete(group);
  for (const [group, { record }] of Object.entries(writes.beside)) item.beside.set(group, record);
  if (writes.overflow?.set !== undefined) item.ov = writes.overflow.set;
  if (writes.overflow && 'remove' in writes.overflow) delete item.ov;
};

/** What a write planned from the item reads: the item, and the marker items of the groups it does not hold. */
const read = (item: Stored, groups: readonly string[]): CounterState =>
  counterStateWith({
    applied: Object.fromEntries(item.inline),
    ...(item.gn !== undefined ? { inlineCount: item.gn } : {}),
    ...(item.ov !== undefined ? { overflowDay: item.ov } : {}),
    beside: Object.fromEntries(
      groups.flatMap((group) =>
        !item.inline.has(group) && item.beside.has(group) ? [[group, item.beside.get(group)!]] : [],
      ),
    ),
  });

const message = (group: string, sequence: number): PendingMessage => ({
  messageId: `${group}/${sequence}`,
  group,
  sequence: sequenceText(sequence),
  contribution: { target: { type: 'BANNER', id: 1 }, periods: {}, impressions: [], conversions: [] },
});

const live = (marker: string | undefined, now: Date) =>
  marker !== undefined && now.getTime() - markerSeenAt(marker)! <= MARKER_HORIZON_MS;

describe('where a group marker goes', () => {
  const groups = (names: string[]) => new Map(names.map((name, index) => [name, [sequenceText(index + 1)]]));
  const now = new Date(START);

  it('inline while the item holds fewer than 32 and wrote nothing beside within the horizon, then beside', () => {
    const held = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [`h${i}`, markerText(sequenceText(1), now)] as const),
    );
    const writes = planGroupMarkers(counterStateWith({ applied: held, inlineCount: 30 }), groups(['a', 'b', 'c']), now);
    expect(Object.keys(writes.sequences)).toEqual(['a', 'b']);
    expect(Object.keys(writes.beside)).toEqual(['c']);
    expect(writes.inlineCount).toEqual({ kind: 'set', expect: 30, count: 32 });
    expect(writes.overflow).toEqual({ expect: null, set: markerDay(now) });
  });

  it('beside while a beside write is recent, inline again once it is idle past the horizon (removing its day)', () => {
    const recent = counterStateWith({ inlineCount: 0, overflowDay: markerDay(now) - 15 });
    expect(Object.keys(planGroupMarkers(recent, groups(['a']), now).beside)).toEqual(['a']);
    const idle = counterStateWith({ inlineCount: 0, overflowDay: markerDay(now) - 16, beside: { a: sequenceText(0) } });
    const writes = planGroupMarkers(idle, groups(['a']), now);
    expect(writes.sequences.a!.expect).toEqual({ kind: 'exactly', sequence: null });
    expect(writes.overflow).toEqual({ expect: markerDay(now) - 16, remove: true });
  });

  it('counts the markers of an item written before the count was kept, on condition that it still has none', () => {
    const old = counterStateWith({ applied: { x: sequenceText(1), y: sequenceText(2) } });
    expect(planGroupMarkers(old, groups(['x']), now).inlineCount).toEqual({ kind: 'set', expect: null, count: 2 });
  });

  it('holds fewer markers itself when built with a smaller number, the rule otherwise the same', () => {
    const held = { h0: markerText(sequenceText(1), now) };
    const writes = planGroupMarkers(counterStateWith({ applied: held, inlineCount: 1 }), groups(['a', 'b']), now, {
      inlineMarkers: 2,
    });
    expect(Object.keys(writes.sequences)).toEqual(['a']);
    expect(Object.keys(writes.beside)).toEqual(['b']);
    expect(writes.inlineCount).toEqual({ kind: 'set', expect: 1, count: 2 });
    const unread = planGroupMarkers(undefined, groups(['a', 'b', 'c']), now, { inlineMarkers: 2 });
    expect(unread.newItemInline).toBeUndefined();
    expect(planGroupMarkers(undefined, groups(['a', 'b']), now, { inlineMarkers: 2 }).newItemInline).toBe(2);
  });

  it('unread, on a shard n ≥ 1 never takes the new-item branch, so that a group new there reads its floor', () => {
    expect(planGroupMarkers(undefined, groups(['a']), now, { unread: 'presentBelow' }).newItemInline).toBeUndefined();
    expect(planGroupMarkers(undefined, groups(['a']), now).newItemInline).toBe(1);
  });
});

/** One recorder invocation on one item: a first write unread (maybe with a guess), then planned from reads. */
const invocation = (item: Stored, pending: PendingMessage[], now: Date, knownInline?: ReadonlySet<string>) => {
  let state: CounterState | undefined;
  const groups = [...new Set(pending.map((one) => one.group))];
  return {
    plan: () =>
      planCounterWrite(
        state,
        pending,
        { periods: [], metrics: [] },
        { now, ...(knownInline && !state ? { knownInline } : {}) },
      ),
    reread: () => {
      state = read(item, groups);
    },
  };
};

const step = fc.record({
  days: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 }), fc.constant(16)),
  groups: fc.uniqueArray(fc.integer({ min: 0, max: 59 }), { minLength: 1, maxLength: 16 }),
  again: fc.boolean(),
  racing: fc.boolean(),
  guess: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 59 }), { maxLength: 40 })),
  schedule: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
});

describe('any batches of groups, with races, redeliveries and wrong guesses', () => {
  it('apply each message once, keep a group marker in one place within the horizon and `gn` exact', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        const item: Stored = { exists: false, inline: new Map(), beside: new Map() };
        const applied = new Map<string, number>();
        const sent = new Map<string, number>();
        let day = 0;
        let sequence = 0;
        for (const one of steps) {
          day += one.days;
          const now = new Date(START + day * DAY);
          const pending = one.groups.map((group) => message(`group-${group}`, ++sequence));
          const guess = one.guess ? new Set(one.guess.map((group) => `group-${group}`)) : undefined;
          const deliveries = [pending, ...(one.again ? [pending] : [])];
          for (const batch of deliveries) {
            // a racing invocation runs the same batch at once; the schedule interleaves their steps
            const runs = [invocation(item, batch, now, guess), ...(one.racing ? [invocation(item, batch, now)] : [])];
            const done = runs.map(() => false);
            for (let turn = 0; done.some((finished) => !finished); turn++) {
              const pick = runs.length > 1 && one.schedule[turn % 8] ? 1 : 0;
              const index = done[pick] ? 1 - pick : pick;
              const write = runs[index]!.plan();
              if (!write) done[index] = true;
              else if (holds(item, write)) {
                apply(item, write);
                for (const { messageId } of write.applies) applied.set(messageId, (applied.get(messageId) ?? 0) + 1);
                done[index] = true;
              } else runs[index]!.reread();
              expect(turn).toBeLessThan(50);
            }
          }
          for (const { messageId } of pending) sent.set(messageId, day);
          expect(item.gn ?? 0).toBe(item.inline.size);
          expect(item.inline.size).toBeLessThanOrEqual(INLINE_MARKERS_PER_ITEM);
          for (const group of item.inline.keys())
            expect(live(item.inline.get(group), now) && live(item.beside.get(group), now), group).toBe(false);
        }
        for (const messageId of sent.keys()) expect(applied.get(messageId), messageId).toBe(1);
      }),
    );
  });
});
