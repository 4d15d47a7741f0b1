import { describe, expect, it } from 'vitest';
import { DEMAND_GRID } from '../../../../shared/domain/limits/cap-grid';
import type { LimitRecord } from '../../../../shared/domain/limits/limit-record';
import { pacingOf } from '../../../../shared/domain/serving/pacing';
import { exactJson } from '../../../../shared/support/exact-json';

const limit = (fields: Partial<LimitRecord>): LimitRecord => ({
  id: 1,
  version: 1,
  caps: {},
  evenPacing: false,
  useLocalTime: false,
  timezoneOffset: 0,
  ...fields,
});
/** As a client reads it: through JSON, where the figures are exact numbers. */
const paced = (...args: Parameters<typeof pacingOf>) =>
  JSON.parse(exactJson(pacingOf(...args))) as Record<string, unknown>[];

describe('pacing', () => {
  it('measures a daily cap against even delivery over the UTC day', () => {
    const now = new Date('2026-06-10T12:00:00Z');
    expect(
      paced(limit({ caps: { dailyImpressionsLimit: 2400 } }), DEMAND_GRID, { daily: { impressions: 600n } }, { now }),
    ).toEqual([
      {
        field: 'dailyImpressionsLimit',
        cap: 2400,
        counter: 600,
        periodStart: '2026-06-10T00:00:00.000Z',
        periodEnd: '2026-06-11T00:00:00.000Z',
        expected: 1200,
        pace: 0.5,
        rateBasis: 'period',
        ratePerHour: 50,
        projectedAtPeriodEnd: 1200,
        projectedReachAt: null,
      },
    ]);
  });

  it('projects when the cap is reached, within the period', () => {
    const now = new Date('2026-06-10T06:00:00Z');
    const [entry] = paced(limit({ caps: { dailyClicksLimit: 100 } }), DEMAND_GRID, { daily: { clicks: 50n } }, { now });
    expect(entry).toMatchObject({
      expected: 25,
      pace: 2,
      ratePerHour: 8.333,
      projectedAtPeriodEnd: 200,
      projectedReachAt: '2026-06-10T12:00:00.000Z',
    });
  });

  it('paces a weekly cap over its ISO week, with nothing delivered yet', () => {
    const [week] = paced(
      limit({ caps: { weeklyClicksLimit: 700 } }),
      DEMAND_GRID,
      {},
      { now: new Date('2026-06-11T00:00:00Z') },
    );
    expect(week).toMatchObject({ expected: 300, pace: 0, ratePerHour: 0, projectedAtPeriodEnd: 0 });
  });

  it('clips the period to the limit start and end dates, and paces totals from start to end date', () => {
    const start = Date.parse('2026-06-10T06:00:00Z');
    const end = Date.parse('2026-06-10T18:00:00Z');
    const now = new Date('2026-06-10T12:00:00Z');
    const entries = paced(
      limit({ caps: { dailyClicksLimit: 100, totalBudgetLimit: 10 }, startDate: start, endDate: end }),
      DEMAND_GRID,
      { daily: { clicks: 10n }, total: { budget: 1000n } },
      { now },
    );
    expect(entries).toEqual([
      expect.objectContaining({
        field: 'dailyClicksLimit',
        periodStart: '2026-06-10T06:00:00.000Z',
        periodEnd: '2026-06-10T18:00:00.000Z',
        expected: 50,
      }),
      // budgets to the thousandth, exactly
      expect.objectContaining({ field: 'totalBudgetLimit', expected: 5, ratePerHour: 0.166, pace: 0.2 }),
    ]);
    // no end date: a total cap has no period to pace over
    expect(paced(limit({ caps: { totalBudgetLimit: 10 } }), DEMAND_GRID, {}, { now })).toEqual([]);
  });

  it('leaves out caps of 0 and caps the caller may not see', () => {
    const now = new Date('2026-06-10T12:00:00Z');
    const caps = { dailyClicksLimit: 10, dailyImpressionsLimit: 0, dailyBudgetLimit: 5 };
    expect(
      paced(limit({ caps }), DEMAND_GRID, {}, { now, visible: (cap) => cap.name !== 'dailyBudgetLimit' }).map(
        (entry) => entry.field,
      ),
    ).toEqual(['dailyClicksLimit']);
  });
});
