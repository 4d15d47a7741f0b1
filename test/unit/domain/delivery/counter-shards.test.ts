import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planCounterWrite, sequenceText, type PendingMessage } from '../../../../shared/domain/delivery/counter-plan';
import {
  shardCountChange,
  shardCountOf,
  shardOfGroup,
  sumShardStates,
  tallyDecision,
  MAX_SHARDS,
  MIN_SHARDS,
} from '../../../../shared/domain/delivery/counter-shards';
import { currentCounters, type Tally } from '../../../../shared/domain/delivery/counter-state';
import { counterStateWith } from './counter-state-fixture';
import { crossingsOnSum, type CapOnCounter } from '../../../../shared/domain/delivery/limit-reached';
import { parseShardRequest } from '../../../../shared/domain/delivery/shard-request';
import { METRICS, PERIODS } from '../../../../shared/domain/limits/cap-axes';

const state = counterStateWith;

describe('the shard of a message group', () => {
  it('is the same in every release: 32-bit FNV-1a (its published test vectors) modulo the count', () => {
    expect(shardOfGroup('a', 2 ** 32)).toBe(0xe40c292c);
    expect(shardOfGroup('foobar', 2 ** 32)).toBe(0xbf9cf968);
    expect(shardOfGroup('foobar', 128)).toBe(0xbf9cf968 % 128);
    expect(shardOfGroup('anything', 1)).toBe(0);
  });

  it('is within the shards, for any group and count', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: MAX_SHARDS }), (group, shards) => {
        const shard = shardOfGroup(group, shards);
        expect(Number.isInteger(shard) && shard >= 0 && shard < shards).toBe(true);
      }),
    );
  });

  it('after a raise, stays or moves onto a shard the raise added, and never returns to a shard it left', () => {
    const counts = fc
      .uniqueArray(fc.integer({ min: MIN_SHARDS, max: MAX_SHARDS }), { minLength: 2, maxLength: 6 })
      .map((unique) => unique.sort((a, b) => a - b));
    fc.assert(
      fc.property(fc.string({ maxLength: 128 }), counts, (group, [base, ...raises]) => {
        const visited = [shardOfGroup(group, base!)];
        let count = base!;
        for (const raised of raises) {
          const before = visited.at(-1)!;
          const after = shardOfGroup(group, raised, base);
          expect(after === before || (after >= count && after < raised)).toBe(true);
          if (after !== before) expect(visited).not.toContain(after);
          visited.push(after);
          count = raised;
        }
      }),
    );
  });

  it('keeps every group where it was while the count is the one first set', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: MIN_SHARDS, max: MAX_SHARDS }), (group, shards) => {
        expect(shardOfGroup(group, shards, shards)).toBe(shardOfGroup(group, shards));
      }),
    );
  });

  it('spreads groups as evenly as chance does after raises (chi-square within 4 standard deviations)', () => {
    const groups = Array.from({ length: 40_000 }, (_, index) => `producer-${index}`);
    for (const [base, shards] of [
      [2, 5],
      [4, 16],
      [16, 96],
      [2, 96],
    ] as const) {
      const perShard = new Array<number>(shards).fill(0);
      for (const group of groups) perShard[shardOfGroup(group, shards, base)]!++;
      const even = groups.length / shards;
      const chiSquare = perShard.reduce((sum, count) => sum + (count - even) ** 2 / even, 0);
      const freedom = shards - 1;
      expect(chiSquare, `${base} → ${shards}`).toBeLessThan(freedom + 4 * Math.sqrt(2 * freedom));
    }
  });

  it('is raised, kept or refused when lowered; the count first set stays the base', () => {
    expect(shardCountChange({ shards: 1, base: 1 }, 4)).toEqual({ kind: 'raise', layout: { shards: 4, base: 4 } });
    expect(shardCountChange({ shards: 4, base: 4 }, 9)).toEqual({ kind: 'raise', layout: { shards: 9, base: 4 } });
    expect(shardCountChange({ shards: 9, base: 4 }, 12)).toEqual({ kind: 'raise', layout: { shards: 12, base: 4 } });
    expect(shardCountChange({ shards: 9, base: 4 }, 9)).toEqual({ kind: 'unchanged' });
    expect(shardCountChange({ shards: 9, base: 4 }, 5)).toEqual({ kind: 'lower' });
  });

  it('reads a stored shard count, and anything else as 1', () => {
    expect([16, '16', 2, 96, undefined, null, 1, 0, 97, 2.5, 'x'].map(shardCountOf)).toEqual([
      16, 16, 2, 96, 1, 1, 1, 1, 1, 1, 1,
    ]);
  });
});

const tally = fc.record(
  { clicks: fc.bigInt({ min: 0n, max: 10n ** 15n }) },
  { requiredKeys: [] },
) as fc.Arbitrary<Tally>;
const day = fc.constantFrom('D#2026-11-24', 'D#2026-11-25', 'D#2026-11-26');

describe('the sum of the shards', () => {
  it('is, per period, the sum of the shards in the latest period any of them reached', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ key: day, daily: tally, total: tally }), { minLength: 1, maxLength: 6 }),
        (shards) => {
          const states = shards.map(({ key, daily, total }) =>
            state({ keys: { daily: key, total: 'T' }, counters: { daily: daily, total: total } }),
          );
          const summed = sumShardStates(states, PERIODS);
          const latest = shards
            .map(({ key }) => key)
            .sort()
            .at(-1)!;
          const sum = (tallies: Tally[]) => tallies.reduce((all, one) => all + (one.clicks ?? 0n), 0n);
          expect(summed.keys.daily).toBe(latest);
          expect(summed.counters.daily?.clicks ?? 0n).toBe(
            sum(shards.filter(({ key }) => key === latest).map(({ daily }) => daily)),
          );
          expect(summed.counters.total?.clicks ?? 0n).toBe(sum(shards.map(({ total }) => total)));
        },
      ),
    );
  });

  it("reads, at an instant of either of the two latest days any shard holds, the sum of the shards' readings", () => {
    const days = ['D#2026-11-23', 'D#2026-11-24', 'D#2026-11-25', 'D#2026-11-26'];
    const slots = fc
      .uniqueArray(fc.constantFrom(...days), { minLength: 1, maxLength: 2 })
      .map((held) => held.sort().reverse());
    fc.assert(
      fc.property(fc.array(fc.tuple(slots, tally, tally), { minLength: 1, maxLength: 5 }), (shards) => {
        const states = shards.map(([[current, previous], today, before]) =>
          state({
            keys: { daily: current },
            counters: { daily: today },
            ...(previous ? { previous: { daily: { key: previous, tally: before } } } : {}),
          }),
        );
        const summed = sumShardStates(states, PERIODS);
        const latest = [...new Set(shards.flatMap(([held]) => held))].sort().reverse().slice(0, 2);
        expect([summed.keys.daily, summed.previous?.daily?.key].filter(Boolean)).toEqual(latest);
        for (const key of latest) {
          const now = new Date(`${key.slice(2)}T12:00:00Z`);
          const read = (one: (typeof states)[number]) => currentCounters(one, now).daily?.clicks ?? 0n;
          expect(read(summed)).toBe(states.reduce((sum, one) => sum + read(one), 0n));
        }
      }),
    );
  });

  it('bounds the no-conversion state from the side that stops delivery no later', () => {
    const summed = sumShardStates(
      [
        state({ quietSince: 1_000, impressionsSinceConversion: 5n }),
        state({ quietSince: 4_000, impressionsSinceConversion: 2n }),
      ],
      PERIODS,
    );
    expect(summed).toMatchObject({ quietSince: 1_000, impressionsSinceConversion: 7n });
  });
});

const AXES = { periods: PERIODS, metrics: METRICS };

const pending = (sequence: number, group = 'g'): PendingMessage => ({
  messageId: `m${sequence}`,
  group,
  sequence: sequenceText(sequence),
  contribution: {
    target: { type: 'ADVERTISER', id: 1 },
    periods: { total: new Map([['T', { clicks: 1n }]]) },
    impressions: [],
    conversions: [],
  },
});

describe("a shard's write", () => {
  it('first requires each group marker present and below, so that a group new on the shard fails once', () => {
    const write = planCounterWrite(undefined, [pending(5)], AXES, { unread: 'presentBelow' });
    expect(write?.sequences.g?.expect).toEqual({ kind: 'presentBelow', sequence: sequenceText(5) });
  });

  it("skips what a group's floor from the other shards holds, and expects the shard's own marker", () => {
    const floors = { g: sequenceText(6) };
    const write = planCounterWrite(state({}), [pending(5), pending(6), pending(7)], AXES, {
      floors,
    });
    expect(write?.applies.map((message) => message.messageId)).toEqual(['m7']);
    expect(write?.skipped.map((message) => message.messageId)).toEqual(['m5', 'm6']);
    expect(write?.sequences.g?.expect).toEqual({ kind: 'exactly', sequence: null });
    expect(planCounterWrite(state({}), [pending(6)], AXES, { floors })).toBeUndefined();
  });
});

describe('LimitReached on the sum', () => {
  const cap: CapOnCounter[] = [{ name: 'dailyClicksLimit', period: 'daily', metric: 'clicks', value: 10 }];
  const snapshot = (clicks: bigint, key = 'D#2026-11-25', resetAt?: number) => ({
    keys: { daily: key },
    counters: { daily: { clicks } },
    ...(resetAt !== undefined ? { resetAt } : {}),
  });
  const at = new Date('2026-11-25T12:00:00Z');
  const target = { type: 'ADVERTISER' as const, id: 7 };

  it('is told by any write that raised the counter while the sum is at or above the cap, under one id', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 20n }),
        fc.bigInt({ min: 0n, max: 5n }),
        fc.bigInt({ min: 0n, max: 30n }),
        (before, added, others) => {
          const after = before + added;
          const events = crossingsOnSum(
            target,
            cap,
            { before: snapshot(before), after: snapshot(after), summed: snapshot(after + others) },
            at,
          );
          const told = added > 0n && after + others >= 10n;
          expect(events.map((event) => event.id)).toEqual(
            told ? ['ADVERTISER#7/dailyClicksLimit=10/D#2026-11-25'] : [],
          );
        },
      ),
    );
  });

  it('keeps the latest reset in the id, and leaves a period the sum has left to the shards in the newer one', () => {
    const reset = crossingsOnSum(
      target,
      cap,
      { before: snapshot(0n), after: snapshot(4n), summed: snapshot(12n, 'D#2026-11-25', 99) },
      at,
    );
    expect(reset.map((event) => event.id)).toEqual(['ADVERTISER#7/dailyClicksLimit=10/D#2026-11-25/reset@99']);
    expect(
      crossingsOnSum(
        target,
        cap,
        { before: snapshot(0n), after: snapshot(11n), summed: snapshot(1n, 'D#2026-11-26') },
        at,
      ),
    ).toEqual([]);
  });
});

describe('a request to shard', () => {
  it('takes a level in any case, a positive id and 2 to 96 shards', () => {
    expect(parseShardRequest({ type: 'Advertiser', id: 1, shards: 16 })).toEqual({
      ok: true,
      request: { type: 'ADVERTISER', id: 1, shards: 16 },
    });
    expect(parseShardRequest({ type: 'site', id: '3', shards: '2' })).toMatchObject({ ok: true });
    const refused = parseShardRequest({ type: 'user', id: -1, shards: 97 });
    expect(refused.ok ? [] : Object.keys(refused.errors)).toEqual(['type', 'id', 'shards']);
    expect(parseShardRequest(null).ok).toBe(false);
  });
});

describe('automatic sharding', () => {
  const auto = { writesPerSecond: 100, shards: 16 };
  it('shards once a window allows fewer writes than the tally holds, else waits out the window', () => {
    expect(tallyDecision({ writes: 1000, since: 0 }, 5_000, auto)).toBe('wait');
    expect(tallyDecision({ writes: 1001, since: 0 }, 5_000, auto)).toBe('shard');
    expect(tallyDecision({ writes: 1000, since: 0 }, 10_000, auto)).toBe('restart');
    expect(tallyDecision({ writes: 2001, since: 0 }, 20_000, auto)).toBe('shard');
  });

  it('shards exactly the rates above the limit, over a full window', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.integer({ min: 10_000, max: 600_000 }), (writes, elapsed) => {
        const decision = tallyDecision({ writes, since: 1_000 }, 1_000 + elapsed, auto);
        // writes / (elapsed / 1000) > 100, in whole numbers
        expect(decision).toBe(writes * 1000 > 100 * elapsed ? 'shard' : 'restart');
      }),
    );
  });
});
