import { beforeAll, describe, expect, it } from 'vitest';
import { DEMAND_GRID } from '../../shared/domain/limits/cap-grid';
import { apiClient, importCatalog } from '../support/http';
import { scanTable, useTestService } from '../support/local-service';

const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');
const alice = () => apiClient(ctx.service.url, 'alice-key-0001');
const viewer = () => apiClient(ctx.service.url, 'viewer-key-0001');
const publisher = () => apiClient(ctx.service.url, 'publisher-key-0001');
const siteEditor = () => apiClient(ctx.service.url, 'site-editor-key-01');
const nobody = () => apiClient(ctx.service.url, 'no-permission-key-1');

const CAMPAIGN = '/rest-api/campaign/100';
const BANNER = '/rest-api/banner/1001';
const SITE = '/rest-api/site/20';
const PLACEMENT = '/rest-api/placement/201';

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    users: [
      {
        id: 60,
        username: 'site-editor',
        password: 'site-editor-password',
        role: 'PUBLISHER',
        apiKeys: ['site-editor-key-01'],
        permissions: { 'Manage Site and Placement Limits': 'READONLY' },
        inventoryPermissions: { 'Daily Clicks Limit': 'ENABLED' },
        access: [{ type: 'SITE', id: 20, level: 'UPDATE' }],
      },
      {
        id: 62,
        username: 'capper',
        password: 'capper-password',
        apiKeys: ['capper-key-0001'],
        permissions: { 'Manage Capping & Limitations': 'ENABLED' },
        access: [{ type: 'ADVERTISER', id: 10, level: 'UPDATE' }],
      },
      {
        id: 61,
        username: 'no-permission',
        password: 'no-permission-pw',
        apiKeys: ['no-permission-key-1'],
        access: [
          { type: 'ADVERTISER', id: 10, level: 'UPDATE' },
          { type: 'SITE', id: 20, level: 'UPDATE' },
        ],
      },
    ],
  });
});

const json = async (response: Response) => ({
  status: response.status,
  body: (await response.json()) as Record<string, unknown>,
});

describe('cap values', () => {
  it('refuses non-numbers, negatives, fractions on counts and values over the maximum, naming each parameter', async () => {
    const { status, body } = await json(
      await demo().post(`${CAMPAIGN}/limits/set.do`, {
        dailyImpressionsLimit: 'ten',
        dailyClicksLimit: '-1',
        dailyConversionsLimit: '1.5',
        totalImpressionsLimit: '4000000001',
        totalBudgetLimit: '10000000000',
        dailyBudgetLimit: '1.0001',
      }),
    );
    expect(status).toBe(400);
    expect(Object.keys(body.errors as object).sort()).toEqual(
      [
        'dailyBudgetLimit',
        'dailyClicksLimit',
        'dailyConversionsLimit',
        'dailyImpressionsLimit',
        'totalBudgetLimit',
        'totalImpressionsLimit',
      ].sort(),
    );
    expect((await json(await demo().get(`${CAMPAIGN}/limits.do`))).body).toEqual({ campaignId: 100, limitsSet: false });
  });

  it('keeps budgets exact to three decimals at the extremes', async () => {
    const { body } = await json(
      await demo().post(`${CAMPAIGN}/limits/set.do`, {
        totalBudgetLimit: '9999999999.999',
        dailyBudgetLimit: '0.001',
        totalImpressionsLimit: '4000000000',
      }),
    );
    expect(body).toMatchObject({
      totalBudgetLimit: 9999999999.999,
      dailyBudgetLimit: 0.001,
      totalImpressionsLimit: 4_000_000_000,
    });
    const raw = await (await demo().get(`${CAMPAIGN}/limits.do`)).text();
    expect(raw).toContain('"totalBudgetLimit":9999999999.999');
    expect(raw).toContain('"dailyBudgetLimit":0.001');
  });

  it('refuses budget and opportunity caps on sites and placements', async () => {
    for (const path of [SITE, PLACEMENT]) {
      const { status, body } = await json(
        await demo().post(`${path}/limits/set.do`, {
          dailyBudgetLimit: '5',
          totalOpportunitiesLimit: '5',
          dailyClicksLimit: '1',
        }),
      );
      expect(status).toBe(400);
      expect(Object.keys(body.errors as object).sort()).toEqual(['dailyBudgetLimit', 'totalOpportunitiesLimit']);
    }
  });

  it('treats 0 as no cap: a shorter cap may be anything under a longer cap of 0', async () => {
    expect(
      (await demo().post(`${BANNER}/limits/set.do`, { monthlyClicksLimit: '0', dailyClicksLimit: '99' })).status,
    ).toBe(200);
  });
});

describe('dates', () => {
  it('refuses impossible dates with 400, and other shapes with both formats named', async () => {
    for (const date of ['2026-13-01 00:00', '2026-02-30-10-00', '2026-11-22 24:00']) {
      const { status, body } = await json(await demo().post(`${CAMPAIGN}/limits/set.do`, { startDate: date }));
      expect(status, date).toBe(400);
      expect((body.errors as Record<string, string>).startDate).toMatch(/real/);
    }
    const { status, body } = await json(await demo().post(`${CAMPAIGN}/limits/set.do`, { endDate: '22/11/2026' }));
    expect(status).toBe(400);
    expect((body.errors as Record<string, string>).endDate).toMatch(/yyyy-MM-dd-HH-mm.*yyyy-MM-dd HH:mm/);
  });

  it('reads dates in timezoneOffset with useLocalTime and stores UTC; a read with an offset shows and echoes it', async () => {
    const set = await json(
      await demo().post(`${PLACEMENT}/limits/set.do`, {
        useLocalTime: 'true',
        timezoneOffset: '90',
        startDate: '2026-12-01 12:00',
        endDate: '2026-12-31-23-59',
      }),
    );
    expect(set.status).toBe(200);
    // the write answers in the offset its dates were read in, as a read with that offset does
    expect(set.body).toMatchObject({
      startDate: '2026-12-01-12-00',
      endDate: '2026-12-31-23-59',
      useLocalTime: true,
      timezoneOffset: 90,
    });
    const utc = await json(await demo().get(`${PLACEMENT}/limits.do`));
    expect(utc.body).toMatchObject({ startDate: '2026-12-01-10-30', endDate: '2026-12-31-22-29' });
    expect(utc.body).not.toHaveProperty('timezoneOffset');
    const local = await json(await demo().get(`${PLACEMENT}/limits.do?timezoneOffset=90`));
    expect(local.body).toMatchObject({
      startDate: '2026-12-01-12-00',
      endDate: '2026-12-31-23-59',
      timezoneOffset: 90,
    });
    const other = await json(await demo().get(`${PLACEMENT}/limits.do?timezoneOffset=-60`));
    expect(other.body).toMatchObject({ startDate: '2026-12-01-09-30', timezoneOffset: -60 });
    expect((await demo().get(`${PLACEMENT}/limits.do?timezoneOffset=841`)).status).toBe(400);
  });

  it('never moves dates not sent, and keeps the stored useLocalTime when it is omitted', async () => {
    const update = await json(await demo().post(`${PLACEMENT}/limits/update.do`, { endDate: '2027-01-31 12:00' }));
    // stored UTC: start 10:30 unchanged, end 12:00 at +90 → 10:30; answered at the stored offset
    expect(update.body).toMatchObject({
      startDate: '2026-12-01-12-00',
      endDate: '2027-01-31-12-00',
      useLocalTime: true,
      timezoneOffset: 90,
    });
    expect((await json(await demo().get(`${PLACEMENT}/limits.do`))).body).toMatchObject({
      startDate: '2026-12-01-10-30',
      endDate: '2027-01-31-10-30',
    });
    const off = await json(
      await demo().post(`${PLACEMENT}/limits/update.do`, { useLocalTime: 'false', endDate: '2027-01-31 12:00' }),
    );
    expect(off.body).toMatchObject({ startDate: '2026-12-01-10-30', endDate: '2027-01-31-12-00', useLocalTime: false });
  });

  it('refuses an endDate before the stored startDate and saves nothing; remove*DateLimit wins', async () => {
    const before = await scanTable(ctx.service);
    const { status, body } = await json(
      await demo().post(`${PLACEMENT}/limits/update.do`, { endDate: '2026-11-30 00:00', dailyClicksLimit: '3' }),
    );
    expect(status).toBe(400);
    expect(body.errors).toEqual({ endDate: expect.any(String) });
    expect(await scanTable(ctx.service)).toEqual(before);
    const removed = await json(
      await demo().post(`${PLACEMENT}/limits/update.do`, {
        startDate: '2027-06-01 00:00',
        removeStartDateLimit: 'true',
        removeEndDateLimit: 'true',
      }),
    );
    expect(removed.status).toBe(200);
    expect(removed.body).not.toHaveProperty('startDate');
    expect(removed.body).not.toHaveProperty('endDate');
  });

  it('refuses a timezoneOffset outside -840..840', async () => {
    expect((await demo().post(`${PLACEMENT}/limits/update.do`, { timezoneOffset: '-841' })).status).toBe(400);
  });
});

describe('validation after merge', () => {
  it('refuses a lone daily cap above the stored total, and lets a stored inconsistency pass an unrelated change', async () => {
    await demo().post('/rest-api/banner/1000/limits/set.do', { totalClicksLimit: '100' });
    const { status, body } = await json(
      await demo().post('/rest-api/banner/1000/limits/update.do', { dailyClicksLimit: '101' }),
    );
    expect(status).toBe(400);
    expect(body.errors).toEqual({ dailyClicksLimit: 'must not exceed totalClicksLimit (100)' });
    // an inconsistency the API would refuse, written straight to the table
    const { store } = ctx.service.dependencies;
    await store.update({
      Key: { PK: 'BANNER#1000', SK: 'LIMIT' },
      UpdateExpression: 'SET caps.dailyClicksLimit = :v',
      ExpressionAttributeValues: { ':v': 500 },
    });
    expect((await demo().post('/rest-api/banner/1000/limits/update.do', { dailyImpressionsLimit: '10' })).status).toBe(
      200,
    );
  });
});

describe('demand-side permissions', () => {
  it('lets READONLY Manage Capping read but not change, and refuses a caller without it', async () => {
    expect((await viewer().get(`${CAMPAIGN}/limits.do`)).status).toBe(200);
    for (const response of [
      await viewer().post(`${CAMPAIGN}/limits/set.do`, { dailyClicksLimit: '1' }),
      await viewer().post(`${CAMPAIGN}/limits/reset.do`, { limitCounters: 'ALL' }),
      await viewer().delete(`${CAMPAIGN}/limits.do`),
    ]) {
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({
        success: false,
        permission: 'Manage Capping & Limitations',
        message: expect.stringContaining('Manage Capping & Limitations'),
      });
    }
    expect((await nobody().get(`${CAMPAIGN}/limits.do`)).status).toBe(403);
  });

  it('hides caps and counters the caller holds neither ENABLED nor READONLY', async () => {
    await demo().post(`${CAMPAIGN}/limits/update.do`, {
      dailyConversionsLimit: '7',
      weeklyOpportunitiesLimit: '8',
      dailyImpressionsLimit: '9',
    });
    const seen = (await json(await alice().get(`${CAMPAIGN}/limits.do`))).body;
    expect(seen).toMatchObject({ dailyImpressionsLimit: 9, dailyBudgetLimit: 0.001, totalBudgetLimit: 9999999999.999 });
    for (const field of [
      'dailyConversionsLimit',
      'dailyConversions',
      'weeklyOpportunitiesLimit',
      'weeklyOpportunities',
      'fieldsHiddenByPermission',
    ])
      expect(seen).not.toHaveProperty(field);
  });

  it('leaves a cap changed without its permission as stored, naming the permission, and saves the rest', async () => {
    const { status, body } = await json(
      await alice().post(`${CAMPAIGN}/limits/update.do`, {
        dailyBudgetLimit: '0.002',
        dailyConversionsLimit: '1',
        dailyClicksLimit: '4',
      }),
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      dailyClicksLimit: 4,
      dailyBudgetLimit: 0.001,
      ignoredFields: ['dailyBudgetLimit', 'dailyConversionsLimit'],
      ignoredFieldReasons: {
        dailyBudgetLimit: expect.stringContaining('"Daily Budget"'),
        dailyConversionsLimit: expect.stringContaining('"Daily Conversions Limit"'),
      },
    });
    const stored = (await json(await demo().get(`${CAMPAIGN}/limits.do`))).body;
    expect(stored).toMatchObject({ dailyBudgetLimit: 0.001, dailyConversionsLimit: 7, dailyClicksLimit: 4 });
  });

  it('needs no permission to re-send a cap with the value it has', async () => {
    const { body } = await json(
      await alice().post(`${CAMPAIGN}/limits/update.do`, {
        dailyBudgetLimit: '0.001',
        totalBudgetLimit: '9999999999.999',
      }),
    );
    expect(body).not.toHaveProperty('ignoredFields');
  });

  it('refuses a reset of a counter without its permission with 403 naming it, queueing nothing', async () => {
    const queued = ctx.service.resetQueue.size;
    for (const [counters, permission] of [
      ['DAILY_REVENUE', 'Daily Budget'],
      ['DAILY_CLICKS,WEEKLY_OPPORTUNITIES', 'Weekly Opportunities Limit'],
      ['ALL_LIMITS', 'Daily Conversions Limit'],
    ] as const) {
      const response = await viewer().post(`${CAMPAIGN}/limits/reset.do`, { limitCounters: counters });
      expect(response.status).toBe(403);
      const refused = await alice().post(`${CAMPAIGN}/limits/reset.do`, { limitCounters: counters });
      expect(refused.status, counters).toBe(403);
      expect(await refused.json()).toMatchObject({ permission });
    }
    const noPerAction = await apiClient(ctx.service.url, 'capper-key-0001').post(`${CAMPAIGN}/limits/reset.do`, {
      limitCounters: 'ALL_ACTION_LIMITS',
    });
    expect(noPerAction.status).toBe(403);
    expect(await noPerAction.json()).toMatchObject({ permission: 'Campaign Per Action Limit' });
    expect(
      (await alice().post(`${CAMPAIGN}/limits/reset.do`, { limitCounters: 'DAILY_CLICKS,TOTAL_REQUESTS' })).status,
    ).toBe(200);
    expect(ctx.service.resetQueue.size).toBe(queued + 1);
  });

  it("refuses entities outside the caller's shares with 403", async () => {
    expect((await alice().get('/rest-api/campaign/102/limits.do')).status).toBe(403);
    expect((await alice().post('/rest-api/banner/1003/limits/set.do', { dailyClicksLimit: '1' })).status).toBe(403);
    expect((await alice().get(`${SITE}/limits.do`)).status).toBe(403);
  });
});

describe('supply-side permissions', () => {
  it('names caps hidden by permission in fieldsHiddenByPermission', async () => {
    await demo().post(`${SITE}/limits/set.do`, {
      dailyRequestsLimit: '100',
      dailyClicksLimit: '10',
      weeklyClicksLimit: '70',
    });
    const { body } = await json(await publisher().get(`${SITE}/limits.do`));
    expect(body).toMatchObject({
      dailyClicksLimit: 10,
      weeklyClicksLimit: 70,
      fieldsHiddenByPermission: { dailyRequestsLimit: 'Daily Requests Limit' },
    });
    expect(body).not.toHaveProperty('dailyRequestsLimit');
    expect(body).not.toHaveProperty('dailyRequests');
  });

  it('refuses with 403 naming the permission a write or reset of a cap the caller may not change, and saves nothing', async () => {
    const before = await scanTable(ctx.service);
    for (const response of [
      await publisher().post(`${SITE}/limits/update.do`, { weeklyClicksLimit: '71', dailyClicksLimit: '9' }),
      await publisher().post(`${SITE}/limits/reset.do`, { limitCounters: 'WEEKLY_CLICKS' }),
    ]) {
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ permission: 'Weekly Clicks Limit' });
    }
    expect(await scanTable(ctx.service)).toEqual(before);
    expect(
      (await publisher().post(`${SITE}/limits/update.do`, { weeklyClicksLimit: '70', dailyClicksLimit: '9' })).status,
    ).toBe(200);
  });

  it('lets READONLY Manage Site and Placement Limits save, but not create or remove without Manage Capping', async () => {
    expect((await siteEditor().post(`${SITE}/limits/update.do`, { dailyClicksLimit: '8' })).status).toBe(200);
    const create = await siteEditor().post('/rest-api/placement/200/limits/set.do', { dailyClicksLimit: '8' });
    expect(create.status).toBe(403);
    expect(await create.json()).toMatchObject({ permission: 'Manage Capping & Limitations' });
    expect((await siteEditor().delete(`${SITE}/limits.do`)).status).toBe(403);
    expect((await nobody().get(`${SITE}/limits.do`)).status).toBe(403);
  });
});

describe('concurrent writes', () => {
  it('persists all of 20 concurrent update.do calls that each set a different cap', async () => {
    const path = '/rest-api/advertiser/11/limits';
    await demo().post(`${path}/set.do`, {});
    const values = new Map(
      DEMAND_GRID.caps.map((cap, index) => [
        cap.name,
        String((['daily', 'weekly', 'monthly', 'total'].indexOf(cap.period) + 1) * 1000 + index),
      ]),
    );
    const statuses = await Promise.all(
      [...values].map(([name, value]) =>
        demo()
          .post(`${path}/update.do`, { [name]: value })
          .then((r) => r.status),
      ),
    );
    expect(statuses).toEqual(statuses.map(() => 200));
    const stored = (await json(await demo().get('/rest-api/advertiser/11/limits.do'))).body;
    for (const [name, value] of values) expect(stored[name], name).toBe(Number(value));
  });

  it('never loses an update nor answers 5xx under 50 concurrent writes to one record', async () => {
    const path = '/rest-api/campaign/102/limits';
    const writes = Array.from({ length: 50 }, (_, index) => {
      const cap = DEMAND_GRID.caps[index % DEMAND_GRID.caps.length]!;
      const value = (['daily', 'weekly', 'monthly', 'total'].indexOf(cap.period) + 1) * 1000 + index;
      return { cap: cap.name, value };
    });
    const statuses = await Promise.all(
      writes.map(({ cap, value }) =>
        demo()
          .post(`${path}/set.do`, { [cap]: String(value) })
          .then((r) => r.status),
      ),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const stored = (await json(await demo().get('/rest-api/campaign/102/limits.do'))).body;
    for (const cap of DEMAND_GRID.caps) {
      const written = writes.filter((write) => write.cap === cap.name).map((write) => write.value);
      expect(written, cap.name).toContain(stored[cap.name]);
    }
    // 50 writers on one item retry after each lost race: beside a whole run's other files that takes its time
  }, 60_000);
});

describe('a parameter name the answer repeats', () => {
  // a body of 1 MiB at most: two pairs of one long name
  const longName = 'x'.repeat(400_000);
  const cut = `${'x'.repeat(64)}…`;

  it('is cut to 64 characters and an ellipsis in a 400, in errors and in the message', async () => {
    const response = await demo().post(`${CAMPAIGN}/limits/set.do`, { [longName]: ['1', '2'] });
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(text.length).toBeLessThan(1000);
    expect(JSON.parse(text)).toMatchObject({
      code: 'INVALID_PARAMETER',
      message: `Invalid parameter: ${cut}`,
      errors: { [cut]: 'given more than once with different values' },
    });
  });

  it('is cut the same in ignoredFields, in the answer and in the history', async () => {
    const response = await demo().post(`${CAMPAIGN}/limits/set.do`, { dailyClicksLimit: '41', [longName]: '1' });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text.length).toBeLessThan(1000);
    expect(JSON.parse(text)).toMatchObject({
      ignoredFields: [cut],
      ignoredFieldReasons: { [cut]: 'unknown parameter' },
    });
    const history = (await (await demo().get(`${CAMPAIGN}/limits/history.do`)).json()) as {
      changes: { ignoredFields?: string[] }[];
    };
    expect(history.changes[0]!.ignoredFields).toEqual([cut]);
  });
});
