import { afterEach, describe, expect, it } from 'vitest';
import { apiClient, postJson, setClock } from '../support/http';
import { useTestService } from '../support/local-service';

const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');
type Entry = Record<string, unknown>;
const pacing = async (path: string, key = 'demo-key-0001') =>
  ((await (await apiClient(ctx.service.url, key).get(`${path}/limits/status.do`)).json()) as { pacing: Entry[] })
    .pacing;

afterEach(async () => {
  await setClock(ctx.service.url, { now: null });
});

describe('pacing in status.do', () => {
  it('follows the counters through the day, the ISO week and the month', async () => {
    await setClock(ctx.service.url, { now: '2026-06-10T00:00:00Z' }); // a Wednesday
    await demo().post('/rest-api/campaign/100/limits/set.do', {
      dailyImpressionsLimit: '2400',
      weeklyImpressionsLimit: '70000',
      monthlyImpressionsLimit: '300000',
    });
    await setClock(ctx.service.url, { now: '2026-06-10T06:00:00Z' });
    await postJson(`${ctx.service.url}/_local/delivery`, [{ kind: 'impression', bannerId: 1000, count: 600 }]);
    await setClock(ctx.service.url, { now: '2026-06-10T12:00:00Z' });
    const noon = await pacing('/rest-api/campaign/100');
    expect(noon.find((entry) => entry.field === 'dailyImpressionsLimit')).toEqual({
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
    });
    // the ISO week began on Monday the 8th: 2.5 of 7 days gone
    expect(noon.find((entry) => entry.field === 'weeklyImpressionsLimit')).toMatchObject({
      periodStart: '2026-06-08T00:00:00.000Z',
      periodEnd: '2026-06-15T00:00:00.000Z',
      expected: 25000,
    });
    expect(noon.find((entry) => entry.field === 'monthlyImpressionsLimit')).toMatchObject({
      periodStart: '2026-06-01T00:00:00.000Z',
      periodEnd: '2026-07-01T00:00:00.000Z',
      expected: 95000,
    });
    await setClock(ctx.service.url, { now: '2026-06-10T18:00:00Z' });
    expect(
      (await pacing('/rest-api/campaign/100')).find((entry) => entry.field === 'dailyImpressionsLimit'),
    ).toMatchObject({
      expected: 1800,
      pace: 0.333,
    });
  });

  it('clips to the start and end dates, paces a total over them, and shows only caps the caller may see', async () => {
    await setClock(ctx.service.url, { now: '2026-06-10T12:00:00Z' });
    await demo().post('/rest-api/banner/1001/limits/set.do', {
      dailyClicksLimit: '100',
      totalBudgetLimit: '10',
      totalConversionsLimit: '40',
      startDate: '2026-06-10-06-00',
      endDate: '2026-06-10-18-00',
    });
    const entries = await pacing('/rest-api/banner/1001');
    expect(entries.find((entry) => entry.field === 'dailyClicksLimit')).toMatchObject({
      periodStart: '2026-06-10T06:00:00.000Z',
      periodEnd: '2026-06-10T18:00:00.000Z',
      expected: 50,
    });
    expect(entries.find((entry) => entry.field === 'totalBudgetLimit')).toMatchObject({ expected: 5 });
    expect(entries.map((entry) => entry.field)).toContain('totalConversionsLimit');
    // alice may not see conversions caps (demo catalog): nothing of them reaches her
    const alice = await pacing('/rest-api/banner/1001', 'alice-key-0001');
    expect(alice.map((entry) => entry.field)).toEqual(expect.arrayContaining(['dailyClicksLimit', 'totalBudgetLimit']));
    expect(alice.map((entry) => entry.field)).not.toContain('totalConversionsLimit');
  });
});
