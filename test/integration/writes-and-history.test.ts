import { afterEach, describe, expect, it } from 'vitest';
import { isWriteRoute, ROUTES, type Operation } from '../../shared/api/route-table';
import { apiClient, postJson, setClock } from '../support/http';
import { scanTable, useTestService } from '../support/local-service';

const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');
type Change = { operation: string; fields?: Record<string, { from: unknown; to: unknown }>; ignoredFields?: string[] };
type Page = { changes: Change[]; next?: string };

const history = async (path: string, key = 'demo-key-0001'): Promise<Page> => {
  const response = await apiClient(ctx.service.url, key).get(`${path}/limits/history.do?limit=500`);
  expect(response.status).toBe(200);
  return (await response.json()) as Page;
};

afterEach(async () => {
  await setClock(ctx.service.url, { now: null });
});

describe('history in commit order', () => {
  it('lists 20 concurrent writes under a frozen clock in the order they committed; the newest matches the record', async () => {
    const path = '/rest-api/campaign/102';
    await setClock(ctx.service.url, { now: '2026-06-10T12:00:00Z' });
    await demo().post(`${path}/limits/set.do`, { dailyClicksLimit: '1' });
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        demo()
          .post(`${path}/limits/update.do`, { dailyClicksLimit: String(100 + index) })
          .then((response) => response.status),
      ),
    );
    expect(statuses).toEqual(statuses.map(() => 200));
    const { changes } = await history(path);
    expect(changes).toHaveLength(21);
    const values = changes.map((change) => change.fields!.dailyClicksLimit!);
    // each change starts where the one committed before it ended
    for (let index = 0; index < values.length - 1; index++)
      expect(values[index]!.from, `entry ${index}`).toBe(values[index + 1]!.to);
    const stored = (await (await demo().get(`${path}/limits.do`)).json()) as { dailyClicksLimit: number };
    expect(values[0]!.to).toBe(stored.dailyClicksLimit);
  });

  it('lists only the fields whose value changed: a set of one cap names that cap alone', async () => {
    const path = '/rest-api/banner/1003';
    await demo().delete(`${path}/limits.do`);
    await demo().post(`${path}/limits/set.do`, { dailyImpressionsLimit: '500' });
    expect((await history(path)).changes[0]!.fields).toEqual({ dailyImpressionsLimit: { from: null, to: 500 } });
  });
});

describe('entries written before versions', () => {
  it('still list, after every versioned entry, and page with their cursors', async () => {
    const { store } = ctx.service.dependencies;
    const legacy = (at: string, dailyClicksLimit: number) => ({
      PK: 'BANNER#1000',
      SK: `HISTORY#${at}#3f1c2b9e-1111-2222-3333-${String(dailyClicksLimit).padStart(12, '0')}`,
      at,
      operation: 'update',
      by: { userId: 1, username: 'demo', method: 'apiKey' },
      fields: { dailyClicksLimit: { from: dailyClicksLimit - 1, to: dailyClicksLimit } },
    });
    await store.put({ Item: legacy('2026-01-01T00:00:00.000Z', 2) });
    await store.put({ Item: legacy('2026-01-02T00:00:00.000Z', 3) });
    // a clock behind the old entries' times changes nothing: versions order the new ones after them
    await setClock(ctx.service.url, { now: '2025-01-01T00:00:00Z' });
    await demo().post('/rest-api/banner/1000/limits/set.do', { dailyClicksLimit: '4' });
    const seen: unknown[] = [];
    let query = '?limit=1';
    for (let page = 0; page < 5 && query; page++) {
      const response = await demo().get(`/rest-api/banner/1000/limits/history.do${query}`);
      const body = (await response.json()) as Page;
      seen.push(...body.changes.map((change) => change.fields!.dailyClicksLimit!.to));
      query = body.next ? `?limit=1&before=${body.next}` : '';
    }
    expect(seen).toEqual([4, 3, 2]);
  });
});

describe('history of caps a caller cannot see', () => {
  it('leaves out an entry that changed only hidden caps, and never names their counters', async () => {
    const path = '/rest-api/banner/1002';
    await demo().post(`${path}/limits/set.do`, { dailyClicksLimit: '10' });
    // alice may not see conversions caps (demo catalog)
    await demo().post(`${path}/limits/update.do`, { totalConversionsLimit: '41', totalConversions: '5' });
    await demo().post(`${path}/limits/update.do`, { dailyClicksLimit: '11', dailyConversions: '5' });
    const seen = await history(path, 'alice-key-0001');
    expect(seen.changes.map((change) => change.operation)).toEqual(['update', 'set']);
    expect(JSON.stringify(seen)).not.toMatch(/Conversions/);
  });
});

describe('history cursors', () => {
  it.each(['SElTVE9SWSM', 'SElTVE9SWSNWIzk', 'SElTVE9SWSMyMDI2LTA2LTEwVDEyOjAwOjAwWiMn'])(
    'answer 400 naming `before` for a cursor the service did not issue (%s)',
    async (cursor) => {
      const response = await demo().get(`/rest-api/campaign/100/limits/history.do?before=${cursor}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ errors: { before: expect.any(String) } });
    },
  );
});

describe('a reset of an entity without counters', () => {
  it('is recorded when the flush applies it', async () => {
    const path = '/rest-api/placement/201';
    await demo().post(`${path}/limits/set.do`, { dailyClicksLimit: '10' });
    expect((await demo().post(`${path}/limits/reset.do`, { limitCounters: 'DAILY_CLICKS' })).status).toBe(200);
    expect(await (await postJson(`${ctx.service.url}/_local/flush`, {})).json()).toMatchObject({ applied: 1 });
    expect((await history(path)).changes[0]).toMatchObject({ operation: 'reset', limitCounters: ['DAILY_CLICKS'] });
  });
});

describe('two resets asked at the same instant', () => {
  it('are two resets: each is applied by its flush, neither taken for a redelivery of the other', async () => {
    const path = '/rest-api/campaign/101';
    await setClock(ctx.service.url, { now: '2026-06-10T12:00:00Z' });
    await demo().post(`${path}/limits/set.do`, { dailyImpressionsLimit: '1000' });
    const resetAndFlush = async () => {
      expect((await demo().post(`${path}/limits/reset.do`, { limitCounters: 'DAILY_IMPRESSIONS' })).status).toBe(200);
      return ((await (await postJson(`${ctx.service.url}/_local/flush`, {})).json()) as { applied: number }).applied;
    };
    expect(await resetAndFlush()).toBe(1);
    await postJson(`${ctx.service.url}/_local/delivery`, [{ kind: 'impression', bannerId: 1002, count: 5 }]);
    expect(await resetAndFlush()).toBe(1);
    const read = (await (await demo().get(`${path}/limits.do`)).json()) as { dailyImpressions?: number };
    expect(read.dailyImpressions ?? 0).toBe(0);
  });
});

/** A request to each write route that would change something, for a dry run. */
const DRY_RUNS: Partial<Record<Operation, Record<string, string>>> = {
  'limits.set': { dailyClicksLimit: '77' },
  'limits.update': { dailyClicksLimit: '77' },
  'limits.reset': { limitCounters: 'ALL' },
  'limits.resetByDelete': { limitCounters: 'ALL' },
  'limits.delete': {},
  'perAction.add': { actionId: '9', dailyConversionsLimit: '4' },
  'perAction.update': { actionId: '7', totalConversionsLimit: '6' },
  'perAction.delete': { type: 'CAMPAIGN', entityId: '101', ids: '' },
  'perAction.enable': {},
  'perAction.disable': {},
  'webhooks.create': { url: 'http://127.0.0.1:4000/hooks', events: 'limit.reached' },
  'webhooks.update': { url: 'http://127.0.0.1:4000/hooks/v2', events: 'limit.changed' },
  'webhooks.delete': {},
  'webhooks.rotateSecret': {},
  'webhooks.enable': {},
};

/** A subscription of the demo user's, for the routes that change one. */
const aSubscription = async (): Promise<string> => {
  const created = await demo().post('/rest-api/webhooks/create.do', DRY_RUNS['webhooks.create']!);
  return ((await created.json()) as { webhook: { id: string } }).webhook.id;
};

describe('dryRun on every write route', () => {
  const writeRoutes = ROUTES.filter(isWriteRoute);

  it.each(writeRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s checks, answers dryRun: true, and changes nothing (no history, no queued reset)',
    async (_name, route) => {
      const id = { advertiser: 11, campaign: 101, banner: 1001, site: 21, placement: 202 }[route.level ?? 'campaign'];
      const target = route.path.includes('{webhookId}') ? await aSubscription() : String(id);
      const path = route.path.replace('{type}', 'CAMPAIGN').replace(/\{[A-Za-z]+\}/, target);
      // something to change: limits with counters, per-action limits of actions 7 and 8, the switch on
      await demo().post(`/rest-api/${route.level ?? 'campaign'}/${id}/limits/set.do`, { dailyClicksLimit: '50' });
      const ids: number[] = [];
      for (const actionId of ['7', '8']) {
        const added = await demo().post('/rest-api/per-action/add/limit/CAMPAIGN/101.do', {
          actionId,
          dailyConversionsLimit: '2',
        });
        ids.push(((await added.json()) as { actionLimit: { id: number } }).actionLimit.id);
      }
      const fields = { ...DRY_RUNS[route.operation]! };
      if (route.operation === 'perAction.delete') fields.ids = ids.join(',');
      if (route.operation === 'perAction.enable')
        await demo().post('/rest-api/per-action/limits/CAMPAIGN/101/disable.do');
      const before = await scanTable(ctx.service);
      const queued = ctx.service.resetQueue.size;
      const query = new URLSearchParams({ ...fields, dryRun: 'true' });
      const response =
        route.method === 'DELETE'
          ? await demo().delete(`${path}?${query}`)
          : await demo().post(path, { ...fields, dryRun: 'true' });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ success: true, dryRun: true });
      expect(await scanTable(ctx.service)).toEqual(before);
      expect(ctx.service.resetQueue.size).toBe(queued);
    },
  );
});
