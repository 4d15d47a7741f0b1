import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, importCatalog, postJson, setClock } from '../support/http';
import { useTestService } from '../support/local-service';

const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');

type Summary = {
  recordedEvents: number;
  unknownEntityEvents: number;
  deadLettered: { reason: string }[];
  limitReached: { cap: string; entity: string }[];
  failedMessageIds: string[];
};
const deliver = async (events: unknown[]): Promise<Summary> => {
  const response = await postJson(`${ctx.service.url}/_local/delivery`, events);
  expect(response.status).toBe(200);
  return (await response.json()) as Summary;
};
const read = async (path: string) => (await (await demo().get(path)).json()) as Record<string, number>;
const status = async (path: string) =>
  (await (await demo().get(path)).json()) as { deliverable: boolean; reasons: Record<string, unknown>[] };
const flush = async () =>
  (await (await postJson(`${ctx.service.url}/_local/flush`, {})).json()) as { applied: number; dropped: number };

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    advertisers: [
      { id: 30 },
      { id: 40, noConversionHoursThreshold: 24, noConversionImpressionsThreshold: 100 },
      { id: 500 },
    ],
    campaigns: [
      { id: 300, advertiserId: 30 },
      { id: 400, advertiserId: 40 },
      ...Array.from({ length: 5 }, (_, i) => ({ id: 501 + i, advertiserId: 500 })),
    ],
    banners: [
      { id: 3000, campaignId: 300 },
      { id: 3001, campaignId: 300 },
      { id: 4000, campaignId: 400 },
      ...Array.from({ length: 50 }, (_, i) => ({ id: 5001 + i, campaignId: 501 + (i % 5) })),
    ],
    sites: [{ id: 31 }],
    placements: [{ id: 310, siteId: 31 }],
    users: [
      {
        id: 90,
        username: 'counter',
        password: 'counter-password',
        apiKeys: ['counter-key-000001'],
        access: [],
      },
    ],
  });
  // demo's shares reach these through new access items
  await importCatalog(ctx.service.url, {
    users: [
      {
        id: 1,
        username: 'demo',
        password: 'demo-password',
        email: 'demo@example.com',
        role: 'NETWORK',
        apiKeys: ['demo-key-0001'],
        permissions: Object.fromEntries(
          [
            'Manage Capping & Limitations',
            'Manage Site and Placement Limits',
            'Campaign Per Action Limit',
            'Inventory Per Action Limit',
            ...['Daily', 'Weekly', 'Monthly', 'Total'].flatMap((p) =>
              ['Impressions', 'Clicks', 'Conversions', 'Opportunities'].map((m) => `${p} ${m} Limit`),
            ),
            'Daily Budget',
            'Weekly Budget',
            'Monthly Budget',
            'Budget',
          ].map((name) => [name, 'ENABLED']),
        ),
        inventoryPermissions: Object.fromEntries(
          ['Daily', 'Weekly', 'Monthly', 'Total'].flatMap((p) =>
            ['Requests', 'Impressions', 'Clicks', 'Conversions'].map((m) => [`${p} ${m} Limit`, 'ENABLED']),
          ),
        ),
        access: [30, 40, 500, 10, 11]
          .map((id) => ({ type: 'ADVERTISER', id, level: 'UPDATE' }))
          .concat([{ type: 'SITE', id: 31, level: 'UPDATE' }]),
      },
    ],
  });
});

afterEach(async () => {
  await setClock(ctx.service.url, { now: null });
});

describe('recording delivery', () => {
  it('counts on the banner, its campaign and advertiser, and on the placement and its site', async () => {
    await setClock(ctx.service.url, { now: '2026-11-18T10:00:00Z' });
    for (const path of [
      '/rest-api/banner/3000',
      '/rest-api/campaign/300',
      '/rest-api/advertiser/30',
      '/rest-api/placement/310',
      '/rest-api/site/31',
    ])
      expect(
        (
          await demo().post(`${path}/limits/set.do`, {
            totalImpressionsLimit: '1000000',
            totalClicksLimit: '1000000',
            dailyConversionsLimit: '100',
          })
        ).status,
      ).toBe(200);
    await demo().post('/rest-api/site/31/limits/update.do', { totalRequestsLimit: '1000' });
    const summary = await deliver([
      { kind: 'impression', bannerId: 3000, placementId: 310, count: 5 },
      { kind: 'click', bannerId: 3000, placementId: 310 },
      { kind: 'conversion', bannerId: 3000, actionId: 7 },
      { kind: 'request', placementId: 310, count: 4 },
    ]);
    expect(summary).toMatchObject({
      recordedEvents: 4,
      unknownEntityEvents: 0,
      deadLettered: [],
      failedMessageIds: [],
    });
    for (const path of ['/rest-api/banner/3000', '/rest-api/campaign/300', '/rest-api/advertiser/30'])
      expect(await read(`${path}/limits.do`), path).toMatchObject({
        totalImpressions: 5,
        totalClicks: 1,
        dailyConversions: 1,
      });
    for (const path of ['/rest-api/placement/310', '/rest-api/site/31'])
      expect(await read(`${path}/limits.do`), path).toMatchObject({ totalImpressions: 5, totalClicks: 1 });
    expect(await read('/rest-api/site/31/limits.do')).toMatchObject({ totalRequests: 4 });
  });

  it('counts per-action conversions for the action on every entity', async () => {
    await setClock(ctx.service.url, { now: '2026-11-18T10:00:00Z' });
    await demo().post('/rest-api/per-action/add/limit/CAMPAIGN/300.do', { actionId: '7', dailyConversionsLimit: '3' });
    await deliver([{ kind: 'conversion', bannerId: 3000, actionId: 7, count: 2 }]);
    const list = (await (await demo().get('/rest-api/per-action/limits/CAMPAIGN/300.do')).json()) as {
      actionLimits: Record<string, number>[];
    };
    expect(list.actionLimits[0]).toMatchObject({ actionId: 7, dailyConversions: 3, totalConversions: 3 });
    // a change answers the record with the same counters
    const changed = (await (
      await demo().post('/rest-api/per-action/update/limit/CAMPAIGN/300.do', {
        actionId: '7',
        dailyConversionsLimit: '4',
      })
    ).json()) as { actionLimit: Record<string, number> };
    expect(changed.actionLimit).toMatchObject({ dailyConversionsLimit: 4, dailyConversions: 3, totalConversions: 3 });
  });

  it('adds budget exactly: 1,000 events of 0.001 read back exactly 1', async () => {
    await demo().post('/rest-api/banner/3001/limits/set.do', { totalBudgetLimit: '5' });
    await deliver(Array.from({ length: 1000 }, () => ({ kind: 'impression', bannerId: 3001, revenue: '0.001' })));
    const raw = await (await demo().get('/rest-api/banner/3001/limits.do')).text();
    expect(raw).toMatch(/"totalBudget":1[,}]/);
    expect(JSON.parse(raw).totalBudget).toBe(1);
  });

  it('rolls daily, ISO-weekly and monthly counters over, keeping the total', async () => {
    await demo().post('/rest-api/campaign/400/limits/set.do', {
      dailyClicksLimit: '100',
      weeklyClicksLimit: '1000',
      monthlyClicksLimit: '10000',
      totalClicksLimit: '100000',
    });
    await setClock(ctx.service.url, { now: '2026-11-29T23:30:00Z' }); // Sunday, ISO week 48
    await deliver([{ kind: 'click', bannerId: 4000, count: 7 }]);
    expect(await read('/rest-api/campaign/400/limits.do')).toMatchObject({
      dailyClicks: 7,
      weeklyClicks: 7,
      monthlyClicks: 7,
      totalClicks: 7,
    });
    await setClock(ctx.service.url, { now: '2026-11-30T00:30:00Z' }); // Monday, week 49, still November
    expect(await read('/rest-api/campaign/400/limits.do')).toMatchObject({
      dailyClicks: 0,
      weeklyClicks: 0,
      monthlyClicks: 7,
      totalClicks: 7,
    });
    await deliver([{ kind: 'click', bannerId: 4000, count: 2 }]);
    await setClock(ctx.service.url, { now: '2026-12-01T00:00:00Z' }); // Tuesday, same week, new month
    expect(await read('/rest-api/campaign/400/limits.do')).toMatchObject({
      dailyClicks: 0,
      weeklyClicks: 2,
      monthlyClicks: 0,
      totalClicks: 9,
    });
  });

  it('sends a poison message to the dead-letter queue while the rest of its batch lands', async () => {
    const before = (await read('/rest-api/banner/3000/limits.do')).totalClicks!;
    const summary = await deliver([
      { kind: 'click', bannerId: 3000 },
      { kind: 'clik', bannerId: 3000 },
      { kind: 'click', bannerId: 3000, count: 2 },
      { kind: 'click', bannerId: 987654 },
    ]);
    expect(summary.deadLettered).toEqual([{ messageId: expect.any(String), reason: expect.stringContaining('kind') }]);
    expect(summary).toMatchObject({ recordedEvents: 2, unknownEntityEvents: 1, failedMessageIds: [] });
    expect(ctx.service.deadLetters.messages.at(-1)).toMatchObject({
      body: JSON.stringify({ kind: 'clik', bannerId: 3000 }),
    });
    expect((await read('/rest-api/banner/3000/limits.do')).totalClicks).toBe(before + 3);
  });

  it('writes once per entity for a 10,000-event batch over 50 banners', async () => {
    const { store } = ctx.service.dependencies;
    const send = vi.spyOn(store.client, 'send');
    try {
      const events = Array.from({ length: 10_000 }, (_, i) => ({
        kind: 'impression',
        bannerId: 5001 + (i % 50),
        revenue: '0.002',
      }));
      const summary = await deliver(events);
      expect(summary.recordedEvents).toBe(10_000);
      const updates = send.mock.calls.filter(([command]) => command instanceof UpdateItemCommand).length;
      // 50 banners + 5 campaigns + 1 advertiser: one counter item each, every period and the no-conversion state in it
      expect(updates).toBe(56);
    } finally {
      send.mockRestore();
    }
    await demo().post('/rest-api/campaign/501/limits/set.do', { totalImpressionsLimit: '100000' });
    expect(await read('/rest-api/campaign/501/limits.do')).toMatchObject({ totalImpressions: 2000 });
  });
});

describe('LimitReached', () => {
  it('is published once, when a write makes a counter reach its cap', async () => {
    await demo().post('/rest-api/campaign/300/limits/update.do', { totalClicksLimit: '20' });
    const before = ((await (await fetch(`${ctx.service.url}/_local/events`)).json()) as unknown[]).length;
    const clicks = (await read('/rest-api/campaign/300/limits.do')).totalClicks!;
    const first = await deliver([{ kind: 'click', bannerId: 3000, count: 20 - clicks }]);
    expect(first.limitReached).toEqual([
      expect.objectContaining({ entity: 'CAMPAIGN#300', cap: 'totalClicksLimit', capValue: 20, counter: 20 }),
    ]);
    const second = await deliver([{ kind: 'click', bannerId: 3000 }]);
    expect(second.limitReached).toEqual([]);
    const published = (await (await fetch(`${ctx.service.url}/_local/events`)).json()) as { cap: string }[];
    expect(published.slice(before)).toHaveLength(1);
  });
});

describe('queued resets', () => {
  it('change nothing until the flush, then zero the named counters', async () => {
    await setClock(ctx.service.url, { now: '2026-12-02T08:00:00Z' });
    await demo().post('/rest-api/banner/3001/limits/update.do', { totalImpressionsLimit: '100000' });
    await deliver([
      { kind: 'impression', bannerId: 3001, count: 3, revenue: '0.5' },
      { kind: 'click', bannerId: 3001, count: 2 },
    ]);
    const before = await read('/rest-api/banner/3001/limits.do');
    expect(before.totalImpressions).toBeGreaterThan(0);
    expect(
      (await demo().post('/rest-api/banner/3001/limits/reset.do', { limitCounters: 'TOTAL_IMPRESSIONS' })).status,
    ).toBe(200);
    expect(await read('/rest-api/banner/3001/limits.do')).toEqual(before);
    expect(await flush()).toMatchObject({ applied: 1, dropped: 0 });
    const after = await read('/rest-api/banner/3001/limits.do');
    expect(after).toMatchObject({ totalImpressions: 0, totalBudget: before.totalBudget });
  });

  it('tell ALL_LIMITS, ALL_ACTION_LIMITS and ALL apart', async () => {
    await setClock(ctx.service.url, { now: '2026-12-02T08:00:00Z' });
    const perAction = async () =>
      (
        (await (await demo().get('/rest-api/per-action/limits/CAMPAIGN/300.do')).json()) as {
          actionLimits: Record<string, number>[];
        }
      ).actionLimits[0]!;
    await deliver([{ kind: 'conversion', bannerId: 3000, actionId: 7 }]);
    expect((await perAction()).dailyConversions).toBeGreaterThan(0);
    await demo().post('/rest-api/campaign/300/limits/reset.do', { limitCounters: 'ALL_LIMITS' });
    await flush();
    expect(await read('/rest-api/campaign/300/limits.do')).toMatchObject({
      totalClicks: 0,
      totalImpressions: 0,
      dailyConversions: 0,
    });
    expect((await perAction()).dailyConversions).toBeGreaterThan(0);
    await demo().post('/rest-api/campaign/300/limits/reset.do', { limitCounters: 'ALL_ACTION_LIMITS' });
    await flush();
    expect(await perAction()).toMatchObject({ dailyConversions: 0, totalConversions: 0 });
    await deliver([
      { kind: 'conversion', bannerId: 3000, actionId: 7 },
      { kind: 'click', bannerId: 3000 },
    ]);
    await demo().post('/rest-api/campaign/300/limits/reset.do', { limitCounters: 'ALL' });
    await flush();
    expect(await read('/rest-api/campaign/300/limits.do')).toMatchObject({ totalClicks: 0, dailyConversions: 0 });
    expect(await perAction()).toMatchObject({ dailyConversions: 0 });
  });

  it('drop a reset whose record was deleted meanwhile, and apply a repeated reset harmlessly', async () => {
    await demo().post('/rest-api/banner/3000/limits/reset.do', { limitCounters: 'TOTAL_CLICKS' });
    await demo().post('/rest-api/banner/3000/limits/reset.do', { limitCounters: 'TOTAL_CLICKS' });
    await demo().post('/rest-api/advertiser/30/limits/reset.do', { limitCounters: 'ALL' });
    await demo().delete('/rest-api/advertiser/30/limits.do');
    expect(await flush()).toEqual({ applied: 2, dropped: 1, failed: 0 });
    expect(await read('/rest-api/banner/3000/limits.do')).toMatchObject({ totalClicks: 0 });
  });
});

describe('failures', () => {
  it('leave a reset whose write failed on the queue, to be applied by a later flush', async () => {
    await demo().post('/rest-api/banner/3000/limits/reset.do', { limitCounters: 'TOTAL_CLICKS' });
    const update = vi
      .spyOn(ctx.service.dependencies.store, 'transactWrite')
      .mockRejectedValueOnce(new Error('throttled'));
    try {
      expect(await flush()).toEqual({ applied: 0, dropped: 0, failed: 1 });
    } finally {
      update.mockRestore();
    }
    expect(ctx.service.resetQueue.size).toBe(1);
    expect(await flush()).toEqual({ applied: 1, dropped: 0, failed: 0 });
    expect(ctx.service.resetQueue.size).toBe(0);
  });

  it('have every valid message of a batch delivered again when a counter write fails', async () => {
    const update = vi.spyOn(ctx.service.dependencies.store, 'update').mockRejectedValue(new Error('throttled'));
    try {
      const summary = await deliver([
        { kind: 'click', bannerId: 3000 },
        { kind: 'click', bannerId: 3001 },
        'not an event',
      ]);
      expect(summary.failedMessageIds).toHaveLength(2);
      expect(summary.deadLettered).toHaveLength(1);
    } finally {
      update.mockRestore();
    }
  });
});

describe('GET /rest-api/{level}/{id}/limits/status.do', () => {
  it('says a banner cannot deliver when its campaign reached a cap, at an equal count', async () => {
    await demo().post('/rest-api/campaign/300/limits/update.do', { totalClicksLimit: '2' });
    await deliver([{ kind: 'click', bannerId: 3001 }]);
    expect(await status('/rest-api/banner/3000/limits/status.do')).toMatchObject({ deliverable: true, reasons: [] });
    await deliver([{ kind: 'click', bannerId: 3001 }]);
    const decision = await status('/rest-api/banner/3000/limits/status.do');
    expect(decision).toEqual({
      deliverable: false,
      reasons: [{ entity: 'CAMPAIGN#300', field: 'totalClicksLimit', cap: 2, counter: 2 }],
      // the banner's own caps' pacing (it has a limit of its own)
      pacing: expect.any(Array),
      countersAsOf: expect.any(String),
    });
  });

  it('stops for no conversions only when both thresholds are crossed', async () => {
    await setClock(ctx.service.url, { now: '2026-12-03T00:00:00Z' });
    await deliver([{ kind: 'impression', bannerId: 4000, count: 150 }]);
    const reasons = async () =>
      (await status('/rest-api/advertiser/40/limits/status.do')).reasons.map((reason) => reason.field);
    expect(await reasons()).not.toContain('noConversion');
    await setClock(ctx.service.url, { now: '2026-12-04T00:00:00Z' });
    expect(await reasons()).toContain('noConversion');
    await deliver([{ kind: 'conversion', bannerId: 4000 }]);
    expect(await reasons()).not.toContain('noConversion');
  });

  it('paces daily caps evenly when evenPacing is on', async () => {
    await setClock(ctx.service.url, { now: '2026-12-05T06:00:00Z' });
    await demo().post('/rest-api/banner/4000/limits/set.do', { dailyImpressionsLimit: '100', evenPacing: 'true' });
    await deliver([{ kind: 'impression', bannerId: 4000, count: 25 }]);
    expect((await status('/rest-api/banner/4000/limits/status.do')).reasons).toContainEqual(
      expect.objectContaining({
        entity: 'BANNER#4000',
        field: 'dailyImpressionsLimit',
        evenPacing: true,
        pacedAllowance: 25,
      }),
    );
    await setClock(ctx.service.url, { now: '2026-12-05T12:00:00Z' });
    expect(
      (await status('/rest-api/banner/4000/limits/status.do')).reasons.filter(
        (reason) => reason.entity === 'BANNER#4000',
      ),
    ).toEqual([]);
  });

  it("follows the read's access and permission rules", async () => {
    expect(
      (await apiClient(ctx.service.url, 'alice-key-0001').get('/rest-api/banner/3000/limits/status.do')).status,
    ).toBe(403);
    expect(
      (await apiClient(ctx.service.url, 'counter-key-000001').get('/rest-api/banner/3000/limits/status.do')).status,
    ).toBe(403);
    expect((await demo().get('/rest-api/banner/424242/limits/status.do')).status).toBe(404);
  });
});
