import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExactNumber } from '../../../../shared/domain/delivery/exact-units';
import {
  actionCaps,
  crosses,
  gridCaps,
  limitCrossings,
  type CounterSnapshot,
} from '../../../../shared/domain/delivery/limit-reached';
import { DEMAND_GRID } from '../../../../shared/domain/limits/cap-grid';

const at = new Date('2026-11-22T12:00:00Z');
const campaign = { type: 'CAMPAIGN' as const, id: 100 };
const dailyClicks = (cap: number) => gridCaps(DEMAND_GRID, { dailyClicksLimit: cap }).filter((c) => c.value > 0);

/** A counter item in day `day` of November with `clicks` today and in total. */
const snapshot = (day: number, clicks: bigint, extra: Partial<CounterSnapshot> = {}): CounterSnapshot => ({
  keys: { daily: `D#2026-11-${day}`, total: 'T' },
  counters: { daily: { clicks }, total: { clicks } },
  ...extra,
});

describe('crosses', () => {
  it('is true when the counter goes from below the cap to at or above it, for a set cap only', () => {
    expect(crosses(100n, 99n, 100n)).toBe(true);
    expect(crosses(100n, 0n, 250n)).toBe(true);
    expect(crosses(100n, 100n, 101n)).toBe(false);
    expect(crosses(100n, 98n, 99n)).toBe(false);
    expect(crosses(0n, 0n, 5n)).toBe(false);
  });
});

describe('limitCrossings (from a counter item before and after one write)', () => {
  it('tells a write that reaches the cap exactly, once, with an id of entity, cap and period', () => {
    const events = limitCrossings(
      campaign,
      dailyClicks(10),
      { before: snapshot(22, 9n), after: snapshot(22, 10n) },
      at,
    );
    expect(events).toEqual([
      {
        id: 'CAMPAIGN#100/dailyClicksLimit=10/D#2026-11-22',
        entity: 'CAMPAIGN#100',
        entityType: 'CAMPAIGN',
        entityId: 100,
        cap: 'dailyClicksLimit',
        capValue: 10,
        counter: new ExactNumber('10'),
        bucket: 'D#2026-11-22',
        at: '2026-11-22T12:00:00.000Z',
      },
    ]);
    expect(
      limitCrossings(campaign, dailyClicks(10), { before: snapshot(22, 10n), after: snapshot(22, 11n) }, at),
    ).toEqual([]);
    expect(
      limitCrossings(campaign, dailyClicks(10), { before: snapshot(22, 8n), after: snapshot(22, 9n) }, at),
    ).toEqual([]);
  });

  it('tells the first write of an item (no old image) that reaches a cap', () => {
    const events = limitCrossings(campaign, dailyClicks(5), { before: undefined, after: snapshot(22, 5n) }, at);
    expect(events.map((event) => event.id)).toEqual(['CAMPAIGN#100/dailyClicksLimit=5/D#2026-11-22']);
  });

  it('tells nothing for a record that changed no counter (a message applied again, a reset of another counter)', () => {
    expect(
      limitCrossings(campaign, dailyClicks(10), { before: snapshot(22, 12n), after: snapshot(22, 12n) }, at),
    ).toEqual([]);
  });

  it('gives the same events with the same ids for the same record handed over again', () => {
    const first = limitCrossings(campaign, dailyClicks(10), { before: snapshot(22, 3n), after: snapshot(22, 30n) }, at);
    expect(
      limitCrossings(campaign, dailyClicks(10), { before: snapshot(22, 3n), after: snapshot(22, 30n) }, at),
    ).toEqual(first);
    expect(first).toHaveLength(1);
  });

  it('tells nothing for a reset back to 0, and a crossing after the reset under a new id', () => {
    const before = limitCrossings(
      campaign,
      dailyClicks(10),
      { before: snapshot(22, 9n), after: snapshot(22, 10n) },
      at,
    )[0]!.id;
    expect(
      limitCrossings(
        campaign,
        dailyClicks(10),
        { before: snapshot(22, 15n), after: snapshot(22, 0n, { resetAt: 1_000 }) },
        at,
      ),
    ).toEqual([]);
    const again = limitCrossings(
      campaign,
      dailyClicks(10),
      { before: snapshot(22, 0n, { resetAt: 1_000 }), after: snapshot(22, 10n, { resetAt: 1_000 }) },
      at,
    );
    expect(again.map((event) => event.id)).toEqual(['CAMPAIGN#100/dailyClicksLimit=10/D#2026-11-22/reset@1000']);
    expect(again[0]!.id).not.toBe(before);
  });

  it('counts a period the write moved to from 0: a new day crosses again, under the new day', () => {
    // yesterday's 15 clicks were over the cap; today's first 10 reach it again
    const events = limitCrossings(
      campaign,
      dailyClicks(10),
      { before: snapshot(21, 15n), after: snapshot(22, 10n) },
      at,
    );
    expect(events.map((event) => event.id)).toEqual(['CAMPAIGN#100/dailyClicksLimit=10/D#2026-11-22']);
    expect(
      limitCrossings(campaign, dailyClicks(10), { before: snapshot(21, 15n), after: snapshot(22, 9n) }, at),
    ).toEqual([]);
  });

  it("tells a late event's crossing in the previous slot as a crossing of that period, and a move as none", () => {
    // an early event moved the item into the 23rd; the 22nd, at its cap already, became the previous slot
    const moved = snapshot(23, 1n, { previous: { daily: { key: 'D#2026-11-22', tally: { clicks: 10n } } } });
    expect(limitCrossings(campaign, dailyClicks(10), { before: snapshot(22, 10n), after: moved }, at)).toEqual([]);
    const below = snapshot(23, 1n, { previous: { daily: { key: 'D#2026-11-22', tally: { clicks: 9n } } } });
    const events = limitCrossings(campaign, dailyClicks(10), { before: below, after: moved }, at);
    expect(events).toMatchObject([
      { id: 'CAMPAIGN#100/dailyClicksLimit=10/D#2026-11-22', bucket: 'D#2026-11-22', counter: new ExactNumber('10') },
    ]);
    // the move itself, from a 22nd below the cap: the 22nd's counter does not change, so it crosses nothing
    expect(limitCrossings(campaign, dailyClicks(10), { before: snapshot(22, 9n), after: below }, at)).toEqual([]);
  });

  it('tells a raised cap reached later in the same period under its own id, and a lowered cap not at all', () => {
    expect(
      limitCrossings(campaign, dailyClicks(20), { before: snapshot(22, 15n), after: snapshot(22, 20n) }, at).map(
        (event) => event.id,
      ),
    ).toEqual(['CAMPAIGN#100/dailyClicksLimit=20/D#2026-11-22']);
    // the cap was lowered under the counter: the write that stores it did not make the counter reach it
    expect(
      limitCrossings(campaign, dailyClicks(5), { before: snapshot(22, 15n), after: snapshot(22, 16n) }, at),
    ).toEqual([]);
  });

  it('judges every cap of a write on its own counter, budgets exactly', () => {
    const caps = gridCaps(DEMAND_GRID, { dailyClicksLimit: 10, totalBudgetLimit: 1.5, dailyImpressionsLimit: 7 });
    const before: CounterSnapshot = {
      keys: { daily: 'D#2026-11-22', total: 'T' },
      counters: { daily: { clicks: 9n, impressions: 1n }, total: { budget: 1499n } },
    };
    const after: CounterSnapshot = {
      keys: { daily: 'D#2026-11-22', total: 'T' },
      counters: { daily: { clicks: 10n, impressions: 2n }, total: { budget: 1500n } },
    };
    const events = limitCrossings(campaign, caps, { before, after }, at);
    expect(events.map(({ id, counter }) => [id, counter.text])).toEqual([
      ['CAMPAIGN#100/dailyClicksLimit=10/D#2026-11-22', '10'],
      ['CAMPAIGN#100/totalBudgetLimit=1.5/T', '1.5'],
    ]);
  });

  it('names the action of a per-action cap in the event and its id', () => {
    const caps = actionCaps({ dailyConversionsLimit: 3, totalConversionsLimit: 0 });
    const conversions = (count: bigint): CounterSnapshot => ({
      keys: { daily: 'D#2026-11-22', total: 'T' },
      counters: { daily: { conversions: count }, total: { conversions: count } },
    });
    const events = limitCrossings(
      { ...campaign, actionId: 7 },
      caps,
      { before: conversions(2n), after: conversions(3n) },
      at,
    );
    expect(events).toEqual([
      expect.objectContaining({
        id: 'CAMPAIGN#100/ACTION#7/dailyConversionsLimit=3/D#2026-11-22',
        actionId: 7,
        cap: 'dailyConversionsLimit',
      }),
    ]);
  });

  it('tells a counter that climbs past its cap in any steps exactly one id, however records repeat', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (cap, steps, repeats) => {
          const totals = steps.map((_, i) => BigInt(steps.slice(0, i + 1).reduce((sum, step) => sum + step, 0)));
          const snapshots = [undefined, ...totals.map((total) => snapshot(22, total))];
          const records = totals.map((_, i) => [snapshots[i], snapshots[i + 1]!] as const);
          const tell = (list: readonly (typeof records)[number][]) =>
            list.flatMap(([before, after]) => limitCrossings(campaign, dailyClicks(cap), { before, after }, at));
          const reached = totals.at(-1)! >= BigInt(cap) ? 1 : 0;
          expect(tell(records)).toHaveLength(reached);
          // the stream hands some records over again, anywhere: repeats only, under the same id
          const delivered = [...records, ...repeats.map((index) => records[index % records.length]!)];
          expect(new Set(tell(delivered).map((event) => event.id)).size).toBe(reached);
        },
      ),
    );
  });
});
