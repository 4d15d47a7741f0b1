import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardsHold, headroomGuards } from '../../../../shared/domain/delivery/headroom';
import { crosses, type CapOnCounter } from '../../../../shared/domain/delivery/limit-reached';
import { EMPTY_COUNTERS } from '../../../../shared/domain/delivery/counter-state';
import type { CounterWrite } from '../../../../shared/domain/delivery/counter-plan';

const clicksCap = (value: number): CapOnCounter => ({
  name: 'dailyClicksLimit',
  period: 'daily',
  metric: 'clicks',
  value,
});
const budgetCap = (value: number): CapOnCounter => ({
  name: 'totalBudgetLimit',
  period: 'total',
  metric: 'budget',
  value,
});

/** A write adding to the current day's clicks (and, when given, to the total budget in thousandths). */
const adding = (clicks: bigint, budgetUnits?: bigint): CounterWrite =>
  ({
    periods: {
      daily: { slots: { current: { mode: 'add', key: 'D#2026-12-01', tally: { clicks } } }, expect: {} },
      ...(budgetUnits !== undefined
        ? { total: { slots: { current: { mode: 'add', key: 'T', tally: { budget: budgetUnits } } }, expect: {} } }
        : {}),
    },
  }) as unknown as CounterWrite;

const stateWith = (clicks: bigint) => ({
  ...EMPTY_COUNTERS,
  keys: { daily: 'D#2026-12-01' },
  counters: { daily: { clicks } },
});

describe('the headroom a counter write proves', () => {
  it('is one guard per capped counter it adds to: below the cap less what it adds, in exact units', () => {
    expect(headroomGuards(adding(3n, 500n), [clicksCap(10), budgetCap(2.5)])).toEqual([
      { period: 'daily', metric: 'clicks', slot: 'current', belowUnits: 7n },
      { period: 'total', metric: 'budget', slot: 'current', belowUnits: 2000n },
    ]);
  });

  it('is none to prove when the write adds to no capped counter, or every cap is 0', () => {
    expect(headroomGuards(adding(3n), [budgetCap(2.5)])).toEqual([]);
    expect(headroomGuards(adding(3n), [clicksCap(0)])).toEqual([]);
  });

  it('cannot be proved when the write adds the cap or more, or sets a period at or over it', () => {
    expect(headroomGuards(adding(10n), [clicksCap(10)])).toBeUndefined();
    const rolled = {
      periods: {
        daily: { slots: { current: { mode: 'set', key: 'D#2026-12-02', tally: { clicks: 4n } } }, expect: {} },
      },
    } as unknown as CounterWrite;
    expect(headroomGuards(rolled, [clicksCap(4)])).toBeUndefined();
    expect(headroomGuards(rolled, [clicksCap(5)])).toEqual([]);
  });

  it('holds exactly when the write cannot cross: for any counter, addition and cap (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 50n }),
        fc.bigInt({ min: 1n, max: 50n }),
        fc.integer({ min: 1, max: 60 }),
        (before, added, cap) => {
          const guards = headroomGuards(adding(added), [clicksCap(cap)]);
          const crossing = crosses(BigInt(cap), before, before + added);
          // a proof that holds on the item means no crossing; a crossing is never proved away
          if (guards && guardsHold(guards, stateWith(before))) expect(crossing).toBe(false);
          if (crossing) expect(guards === undefined || !guardsHold(guards, stateWith(before))).toBe(true);
        },
      ),
    );
  });
});
