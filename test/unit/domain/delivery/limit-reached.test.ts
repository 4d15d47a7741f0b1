import { describe, expect, it } from 'vitest';
import { planCounterWrite, type PendingMessage } from '../../../../shared/domain/delivery/counter-plan';
import { ExactNumber } from '../../../../shared/domain/delivery/exact-units';
import { counterChanges, crosses, gridCaps, limitCrossings } from '../../../../shared/domain/delivery/limit-reached';
import { DEMAND_GRID } from '../../../../shared/domain/limits/cap-grid';
import { METRICS, PERIODS } from '../../../../shared/domain/limits/metrics';

const now = new Date('2026-11-22T12:00:00Z');

const message = (tally: Record<string, bigint>): PendingMessage => ({
  messageId: 'm',
  group: 'g',
  sequence: '1',
  contribution: {
    target: { type: 'CAMPAIGN', id: 100 },
    periods: { daily: new Map([['D#2026-11-22', tally]]) },
    impressions: [],
    conversions: [],
  },
});

describe('LimitReached', () => {
  it('is published when a write crosses the cap, equal counts included, and not after', () => {
    expect(crosses(100n, 99n, 100n)).toBe(true);
    expect(crosses(100n, 100n, 101n)).toBe(false);
    expect(crosses(0n, 0n, 5n)).toBe(false);
    const caps = gridCaps(DEMAND_GRID, { dailyBudgetLimit: 1, dailyClicksLimit: 10 });
    const write = planCounterWrite(undefined, [message({ clicks: 3n, budget: 1n })], PERIODS, METRICS)!;
    const after = (values: Record<string, bigint>) => (_period: string, metric: string) => values[metric];
    const crossed = limitCrossings(
      { type: 'CAMPAIGN', id: 100 },
      counterChanges(write, after({ clicks: 10n, budget: 1000n })),
      caps,
      now,
    );
    expect(crossed.map((event) => event.cap)).toEqual(['dailyClicksLimit', 'dailyBudgetLimit']);
    expect(crossed[1]).toMatchObject({
      entity: 'CAMPAIGN#100',
      capValue: 1,
      counter: new ExactNumber('1'),
      bucket: 'D#2026-11-22',
    });
    expect(
      limitCrossings(
        { type: 'CAMPAIGN', id: 100 },
        counterChanges(write, after({ clicks: 13n, budget: 1001n })),
        caps,
        now,
      ),
    ).toEqual([]);
  });

  it('counts a period the write replaced (a new day) as starting from 0', () => {
    const state = {
      keys: { daily: 'D#2026-11-21' },
      counters: { daily: { clicks: 50n } },
      applied: {},
      impressionsSinceConversion: 0n,
    };
    const write = planCounterWrite(state, [message({ clicks: 10n })], PERIODS, METRICS)!;
    expect(write.periods.daily).toMatchObject({ mode: 'set', key: 'D#2026-11-22' });
    const changes = counterChanges(write, () => 10n);
    expect(changes).toEqual([{ period: 'daily', key: 'D#2026-11-22', metric: 'clicks', before: 0n, after: 10n }]);
  });
});
