import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, bodyWithoutRequestId, importCatalog, postForm, postJson, setClock } from '../support/http';
import { useTestService } from '../support/local-service';

/** Each attack found against the service, as a regression test: nothing the caller may not see reaches it. */
const ctx = useTestService();
const admin = () => apiClient(ctx.service.url, 'demo-key-0001');
const campaignOnly = () => apiClient(ctx.service.url, 'campaign-only-key');
const placementOnly = () => apiClient(ctx.service.url, 'placement-only-key');
const blind = () => apiClient(ctx.service.url, 'blind-key-000001');
const url = (path: string) => `${ctx.service.url}/rest-api/auth${path}`;

const PERIODS = ['Daily', 'Weekly', 'Monthly', 'Total'];
const DEMAND = [
  ...PERIODS.flatMap((p) => ['Impressions', 'Clicks', 'Conversions', 'Opportunities'].map((m) => `${p} ${m} Limit`)),
  'Daily Budget',
  'Weekly Budget',
  'Monthly Budget',
  'Budget',
];
const INVENTORY = PERIODS.flatMap((p) =>
  ['Requests', 'Impressions', 'Clicks', 'Conversions'].map((m) => `${p} ${m} Limit`),
);
const enabled = (names: string[], except: string[] = []) =>
  Object.fromEntries(names.map((name) => [name, except.includes(name) ? 'DISABLED' : 'ENABLED']));
const GENERAL = [
  'Manage Capping & Limitations',
  'Manage Site and Placement Limits',
  'Campaign Per Action Limit',
  'Inventory Per Action Limit',
];

const user = (id: number, username: string, key: string, access: object[], hide: string[] = []) => ({
  id,
  username,
  password: `${username}-password`,
  email: `${username}@example.com`,
  apiKeys: [key],
  permissions: enabled([...GENERAL, ...DEMAND], hide),
  inventoryPermissions: enabled(INVENTORY, hide),
  access,
});

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    users: [
      user(61, 'campaign-only', 'campaign-only-key', [{ type: 'CAMPAIGN', id: 100, level: 'UPDATE' }]),
      user(62, 'placement-only', 'placement-only-key', [{ type: 'PLACEMENT', id: 200, level: 'UPDATE' }]),
      user(
        63,
        'blind',
        'blind-key-000001',
        [
          { type: 'ADVERTISER', id: 10, level: 'UPDATE' },
          { type: 'SITE', id: 20, level: 'UPDATE' },
        ],
        ['Total Conversions Limit', 'Total Clicks Limit', 'Weekly Budget'],
      ),
    ],
  });
});

describe('status.do', () => {
  it('tells a caller only that an ancestor it has no share on stops delivery', async () => {
    await setClock(ctx.service.url, { now: '2026-11-22T10:00:00Z' });
    try {
      await admin().post('/rest-api/advertiser/10/limits/set.do', { totalBudgetLimit: '10' });
      await admin().post('/rest-api/site/20/limits/set.do', { dailyImpressionsLimit: '3' });
      await postJson(`${ctx.service.url}/_local/delivery`, [
        { kind: 'impression', bannerId: 1000, revenue: '12.345' },
        { kind: 'impression', placementId: 200, count: 5 },
      ]);
      expect((await campaignOnly().get('/rest-api/advertiser/10/limits.do')).status).toBe(403);
      const demand = await (await campaignOnly().get('/rest-api/campaign/100/limits/status.do')).text();
      expect(JSON.parse(demand)).toMatchObject({
        deliverable: false,
        reasons: [{ entity: 'ADVERTISER#10', hidden: true }],
      });
      expect(demand).not.toMatch(/totalBudget|12\.345|"cap"/);
      const supply = await (await placementOnly().get('/rest-api/placement/200/limits/status.do')).text();
      expect(JSON.parse(supply)).toMatchObject({ deliverable: false, reasons: [{ entity: 'SITE#20', hidden: true }] });
      expect(supply).not.toMatch(/dailyImpressions|"counter"|"cap"/);
      // the owner of the share sees the numbers
      expect(await (await admin().get('/rest-api/campaign/100/limits/status.do')).json()).toMatchObject({
        reasons: [{ entity: 'ADVERTISER#10', field: 'totalBudgetLimit', cap: 10, counter: 12.345 }],
      });
    } finally {
      await admin().delete('/rest-api/advertiser/10/limits.do');
      await admin().delete('/rest-api/site/20/limits.do');
      await setClock(ctx.service.url, { now: null });
    }
  });
});

/** Status and body of a write, the record id and counters aside: what a caller could compare between two values. */
const verdict = async (response: Response) => {
  const body = (await response.json()) as Record<string, unknown>;
  return { status: response.status, success: body.success, errors: body.errors, ignoredFields: body.ignoredFields };
};

describe('hidden caps', () => {
  it('never decide whether a write is accepted: a daily cap above or below a hidden total is the same answer (no oracle)', async () => {
    await admin().post('/rest-api/campaign/101/limits/set.do', { totalConversionsLimit: '1234' });
    const answers = [];
    for (const value of ['1000', '999999'])
      for (const dryRun of ['true', 'false']) {
        const response = await blind().post('/rest-api/campaign/101/limits/update.do', {
          dailyConversionsLimit: value,
          dryRun,
        });
        answers.push(await verdict(response));
      }
    expect(answers).toEqual(Array(4).fill({ status: 200, success: true, errors: undefined, ignoredFields: undefined }));
    // the tighter cap still governs delivery; the caller who sees both caps is still held to their order
    const seen = await admin().post('/rest-api/campaign/101/limits/update.do', { dailyConversionsLimit: '5000' });
    expect(seen.status).toBe(400);
    for (const value of ['1233', '1234']) {
      const answer = await blind().post('/rest-api/campaign/101/limits/update.do', { totalConversionsLimit: value });
      expect(await answer.json(), value).toMatchObject({
        ignoredFields: ['totalConversionsLimit'],
        ignoredFieldReasons: { totalConversionsLimit: expect.stringContaining('Total Conversions Limit') },
      });
    }
  });

  it('do the same on the supply side, where a change without permission is a 403 whatever value is sent', async () => {
    await admin().post('/rest-api/placement/201/limits/set.do', { totalClicksLimit: '50' });
    const answers = [];
    for (const value of ['40', '60'])
      answers.push(
        await verdict(await blind().post('/rest-api/placement/201/limits/update.do', { dailyClicksLimit: value })),
      );
    expect(answers).toEqual(Array(2).fill({ status: 200, success: true, errors: undefined, ignoredFields: undefined }));
    for (const value of ['49', '50']) {
      const answer = await blind().post('/rest-api/placement/201/limits/update.do', { totalClicksLimit: value });
      expect(answer.status, value).toBe(403);
      expect(await answer.json(), value).toMatchObject({ permission: 'Total Clicks Limit' });
    }
  });

  it('give a reset of ALL the same 403 whether a hidden cap is set or not', async () => {
    await admin().post('/rest-api/banner/1001/limits/set.do', { dailyClicksLimit: '5' });
    const unset = await blind().post('/rest-api/banner/1001/limits/reset.do', { limitCounters: 'ALL' });
    await admin().post('/rest-api/banner/1001/limits/update.do', { weeklyBudgetLimit: '5' });
    const set = await blind().post('/rest-api/banner/1001/limits/reset.do', { limitCounters: 'ALL' });
    expect(unset.status).toBe(403);
    expect(set.status).toBe(403);
    expect(bodyWithoutRequestId(await set.text())).toEqual(bodyWithoutRequestId(await unset.text()));
  });
});

describe('credentials', () => {
  const token = async (username: string, password: string) =>
    ((await (await postForm(url('/token.do'), { username, password })).json()) as { authToken: string }).authToken;

  it('a login token issued before a password reset opens no session', async () => {
    const before = await token('placement-only', 'placement-only-password');
    await postForm(url('/forgot.do'), { email: 'placement-only@example.com' });
    const outbox = (await (await fetch(`${ctx.service.url}/_local/outbox`)).json()) as { to: string; text: string }[];
    const link = /token=([0-9a-f]{32})/.exec(
      outbox.filter((mail) => mail.to === 'placement-only@example.com').at(-1)!.text,
    )![1]!;
    expect((await postForm(url('/reset-password.do'), { token: link, password: 'another-long-password' })).status).toBe(
      200,
    );
    const login = await fetch(url(`/${before}/login.do?json=true`));
    expect(login.status).toBe(404);
    expect(await login.json()).toMatchObject({ success: false });
    expect(login.headers.get('set-cookie')).toBeNull();
  });

  it('a login token issued before a deactivation opens no session', async () => {
    const before = await token('campaign-only', 'campaign-only-password');
    await importCatalog(ctx.service.url, {
      users: [
        {
          ...user(61, 'campaign-only', 'campaign-only-key', [{ type: 'CAMPAIGN', id: 100, level: 'UPDATE' }]),
          active: false,
        },
      ],
    });
    const login = await fetch(url(`/${before}/login.do?json=true`));
    expect(await login.json()).toMatchObject({ success: false });
    expect(login.headers.get('set-cookie')).toBeNull();
  });

  it('only the newest reset link works', async () => {
    await setClock(ctx.service.url, { now: '2026-11-22T10:00:00Z' });
    try {
      const links = [];
      for (let mail = 0; mail < 2; mail++) {
        await postForm(url('/forgot.do'), { email: 'blind@example.com' });
        const outbox = (await (await fetch(`${ctx.service.url}/_local/outbox`)).json()) as {
          to: string;
          text: string;
        }[];
        links.push(
          /token=([0-9a-f]{32})/.exec(outbox.filter((mail) => mail.to === 'blind@example.com').at(-1)!.text)![1]!,
        );
        await setClock(ctx.service.url, { advanceSeconds: 11 * 60 });
      }
      expect(links[0]).not.toBe(links[1]);
      expect(
        (await postForm(url('/reset-password.do'), { token: links[0]!, password: 'a-long-new-password' })).status,
      ).toBe(404);
      expect(
        (await postForm(url('/reset-password.do'), { token: links[1]!, password: 'a-long-new-password' })).status,
      ).toBe(200);
    } finally {
      await setClock(ctx.service.url, { now: null });
    }
  });
});

describe('dates', () => {
  it('refuse years outside 1000–9999, as sent or in UTC, naming the field', async () => {
    for (const fields of <Record<string, string>[]>[
      { startDate: '0026-11-22-10-00' },
      { useLocalTime: 'true', timezoneOffset: '-840', endDate: '9999-12-31-23-59' },
    ]) {
      const answer = await admin().post('/rest-api/campaign/100/limits/set.do', fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(Object.keys(((await answer.json()) as { errors: object }).errors)).toEqual(
        Object.keys(fields).filter((name) => name.endsWith('Date')),
      );
    }
  });
});
