import { afterEach, describe, expect, it } from 'vitest';
import { apiClient, postJson, setClock } from '../support/http';
import { scanTable, useTestService } from '../support/local-service';

const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');
type Change = Record<string, unknown> & { operation: string; fields?: Record<string, unknown> };
type Page = { success: boolean; changes: Change[]; next?: string };

const history = async (path: string, query = '', key = 'demo-key-0001'): Promise<Page> => {
  const response = await apiClient(ctx.service.url, key).get(`${path}/limits/history.do${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Page;
};
const historyItems = async () =>
  (await scanTable(ctx.service)).filter((item) => String(item.SK).startsWith('HISTORY#'));

afterEach(async () => {
  await setClock(ctx.service.url, { now: null });
  await postJson(`${ctx.service.url}/_local/faults`, { failWrites: [] });
});

describe('GET /rest-api/{level}/{id}/limits/history.do', () => {
  it('records set, update and delete, newest first, with who, what and what was ignored; an unchanged write records nothing', async () => {
    const path = '/rest-api/campaign/101';
    expect(await history(path)).toEqual({ success: true, changes: [] });
    await setClock(ctx.service.url, { now: '2026-06-10T12:00:00Z' });
    await demo().post(`${path}/limits/set.do`, { dailyImpressionsLimit: '100', weeklyBudgetLimit: '12.5' });
    await setClock(ctx.service.url, { now: '2026-06-10T12:05:00Z' });
    await demo().post(`${path}/limits/update.do`, { dailyImpressionsLimit: '200', dailyRequestsLimit: '5' });
    await demo().post(`${path}/limits/update.do`, { dailyImpressionsLimit: '200' });
    await setClock(ctx.service.url, { now: '2026-06-10T12:10:00Z' });
    expect((await demo().delete(`${path}/limits.do`)).status).toBe(200);
    expect((await demo().delete(`${path}/limits.do`)).status).toBe(200);

    const { changes, next } = await history(path);
    expect(next).toBeUndefined();
    expect(changes.map((change) => change.operation)).toEqual(['delete', 'update', 'set']);
    const [deleted, updated, set] = changes;
    expect(updated).toEqual({
      at: '2026-06-10T12:05:00.000Z',
      operation: 'update',
      by: { userId: expect.any(Number), username: 'demo', method: 'apiKey' },
      fields: { dailyImpressionsLimit: { from: 100, to: 200 } },
      ignoredFields: ['dailyRequestsLimit'],
    });
    expect(set!.fields).toMatchObject({
      dailyImpressionsLimit: { from: null, to: 100 },
      weeklyBudgetLimit: { from: null, to: 12.5 },
    });
    expect(deleted).toMatchObject({ at: '2026-06-10T12:10:00.000Z', operation: 'delete' });
    expect(deleted!.fields).toMatchObject({
      dailyImpressionsLimit: { from: 200, to: null },
      weeklyBudgetLimit: { from: 12.5, to: null },
    });
    // kept at least 400 days, by DynamoDB's TTL
    for (const item of await historyItems())
      expect(Number(item.expiresAt)).toBeGreaterThanOrEqual(Date.parse('2026-06-10T12:00:00Z') / 1000 + 400 * 86_400);
  });

  it('pages newest first with `limit` and `before`, and refuses malformed values', async () => {
    const path = '/rest-api/banner/1000';
    for (let change = 1; change <= 7; change++) {
      await setClock(ctx.service.url, { now: `2026-06-10T12:0${change}:00Z` });
      await demo().post(`${path}/limits/set.do`, { dailyClicksLimit: String(change) });
    }
    const seen: unknown[] = [];
    let page = await history(path, '?limit=3');
    const sizes = [page.changes.length];
    seen.push(...page.changes.map((change) => change.fields!.dailyClicksLimit));
    while (page.next) {
      page = await history(path, `?limit=3&before=${page.next}`);
      sizes.push(page.changes.length);
      seen.push(...page.changes.map((change) => change.fields!.dailyClicksLimit));
    }
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1].map((to) => ({ from: to === 1 ? null : to - 1, to })));
    expect((await history(path)).changes).toHaveLength(7);

    for (const query of ['?limit=0', '?limit=501', '?limit=ten', '?limit=2.5', '?before=nonsense', '?before=%00']) {
      const response = await demo().get(`${path}/limits/history.do${query}`);
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as { errors: Record<string, string> };
      expect(Object.keys(body.errors), query).toEqual([query.slice(1, query.indexOf('='))]);
    }
  });

  it('answers 404 for an unknown entity and 403 without access, as a read does', async () => {
    expect((await demo().get('/rest-api/campaign/99999/limits/history.do')).status).toBe(404);
    expect((await apiClient(ctx.service.url, 'alice-key-0001').get('/rest-api/site/20/limits/history.do')).status).toBe(
      403,
    );
  });

  it('records a reset when the flush applies it, once even when the flush applies it twice', async () => {
    const path = '/rest-api/banner/1002';
    await demo().post(`${path}/limits/set.do`, { dailyClicksLimit: '50' });
    await postJson(`${ctx.service.url}/_local/delivery`, [{ kind: 'click', bannerId: 1002, count: 4 }]);
    expect((await demo().post(`${path}/limits/reset.do`, { limitCounters: 'DAILY_CLICKS' })).status).toBe(200);
    // nothing changes, and nothing is recorded, until the flush
    expect((await history(path)).changes.map((change) => change.operation)).toEqual(['set']);
    // the same reset delivered a second time, as SQS may when an acknowledgement is lost
    const session = ctx.service.resetQueue.session();
    const [queued] = await session.receive(1);
    session.end();
    await ctx.service.resetQueue.enqueue(queued!.request!);
    // one applied now; its copy finds it applied, changes nothing and is not counted
    expect(await (await postJson(`${ctx.service.url}/_local/flush`, {})).json()).toMatchObject({ applied: 1 });
    const { changes } = await history(path);
    expect(changes.map((change) => change.operation)).toEqual(['reset', 'set']);
    expect(changes[0]).toMatchObject({
      operation: 'reset',
      limitCounters: ['DAILY_CLICKS'],
      by: { username: 'demo', method: 'apiKey' },
      appliedAt: expect.any(String),
    });
  });

  it('records per-action add, update, delete and the switch, with the action', async () => {
    const path = '/rest-api/campaign/100';
    const added = await demo().post('/rest-api/per-action/add/limit/CAMPAIGN/100.do', {
      actionId: '8',
      dailyConversionsLimit: '3',
    });
    const id = ((await added.json()) as { actionLimit: { id: number } }).actionLimit.id;
    await demo().post('/rest-api/per-action/update/limit/CAMPAIGN/100.do', {
      actionId: '8',
      totalConversionsLimit: '9',
    });
    await demo().post('/rest-api/per-action/update/limit/CAMPAIGN/100.do', {
      actionId: '8',
      totalConversionsLimit: '9',
    });
    await demo().post('/rest-api/per-action/delete.do', { type: 'CAMPAIGN', entityId: '100', ids: String(id) });
    await demo().post('/rest-api/per-action/limits/CAMPAIGN/100/disable.do', {});
    await demo().post('/rest-api/per-action/limits/CAMPAIGN/100/disable.do', {});
    const { changes } = await history(path);
    expect(changes.map((change) => change.operation)).toEqual([
      'actionsDisabled',
      'actionDelete',
      'actionUpdate',
      'actionAdd',
    ]);
    expect(changes[3]).toMatchObject({
      actionId: 8,
      fields: {
        dailyConversionsLimit: { from: null, to: 3 },
        totalConversionsLimit: { from: null, to: 0 },
        actionLimitsEnabled: { from: false, to: true },
      },
    });
    expect(changes[2]).toMatchObject({ actionId: 8, fields: { totalConversionsLimit: { from: 0, to: 9 } } });
    expect(changes[1]).toMatchObject({ actionIds: [8] });
    // a caller who may not see per-action limits sees none of their history
    expect((await history(path, '', 'viewer-key-0001')).changes).toEqual([]);
  });

  it('leaves out what the caller may not see, and entries that touched nothing else', async () => {
    const path = '/rest-api/banner/1001';
    await demo().post(`${path}/limits/set.do`, { dailyClicksLimit: '10', totalConversionsLimit: '40' });
    await demo().post(`${path}/limits/update.do`, { totalConversionsLimit: '41' });
    // alice may not see conversions caps (demo catalog)
    const { changes } = await history(path, '', 'alice-key-0001');
    expect(changes.map((change) => change.operation)).toEqual(['set']);
    expect(changes[0]!.fields).toHaveProperty('dailyClicksLimit');
    expect(JSON.stringify(changes)).not.toContain('Conversions');
    const values = changes.flatMap((change) => Object.values(change.fields ?? {}) as { from: unknown; to: unknown }[]);
    expect(values.flatMap(({ from, to }) => [from, to])).not.toEqual(expect.arrayContaining([40]));
    expect((await history(path)).changes.map((change) => change.operation)).toEqual(['update', 'set']);
  });

  it('writes a change and its entry together or not at all, whichever write request fails', async () => {
    const path = '/rest-api/advertiser/10';
    const failWrite = async (nth: number) => {
      const faults = (await (await fetch(`${ctx.service.url}/_local/faults`)).json()) as { writesSeen: number };
      await postJson(`${ctx.service.url}/_local/faults`, { failWrites: [faults.writesSeen + nth] });
    };
    const limitOf = async () => (await (await demo().get(`${path}/limits.do`)).json()) as Record<string, unknown>;
    let value = 10;
    for (const nth of [1, 2, 3]) {
      value++;
      await failWrite(nth);
      const status = (await demo().post(`${path}/limits/set.do`, { dailyClicksLimit: String(value) })).status;
      await postJson(`${ctx.service.url}/_local/faults`, { failWrites: [] });
      const changed = (await limitOf()).dailyClicksLimit === value;
      const recorded = (await history(path)).changes.some(
        (change) => (change.fields?.dailyClicksLimit as { to?: unknown } | undefined)?.to === value,
      );
      expect({ nth, changed, recorded, status }).toEqual({
        nth,
        changed,
        recorded: changed,
        status: changed ? 200 : 503,
      });
    }
    for (const nth of [1, 2]) {
      await failWrite(nth);
      const status = (await demo().delete(`${path}/limits.do`)).status;
      await postJson(`${ctx.service.url}/_local/faults`, { failWrites: [] });
      const deleted = (await limitOf()).limitsSet === false;
      const recorded = (await history(path)).changes[0]!.operation === 'delete';
      expect({ nth, deleted, recorded }).toEqual({ nth, deleted, recorded: deleted });
      if (status === 200) break;
    }
    expect((await history(path)).changes.filter((change) => change.operation === 'delete')).toHaveLength(1);
  });
});

describe('LimitChanged events', () => {
  it('carry every new history entry from the table stream to the bus, whole, once', async () => {
    const changes = async () =>
      (await (await fetch(`${ctx.service.url}/_local/limit-changes`)).json()) as Record<string, unknown>[];
    const before = (await changes()).length;
    await demo().post('/rest-api/site/21/limits/set.do', { dailyImpressionsLimit: '70' });
    await demo().post('/rest-api/site/21/limits/set.do', { dailyImpressionsLimit: '70' });
    const published = (await changes()).slice(before);
    expect(published).toEqual([
      {
        entityType: 'SITE',
        entityId: 21,
        changeId: expect.stringMatching(/^SITE#21#V#\d{12}$/),
        change: (await history('/rest-api/site/21')).changes[0],
      },
    ]);
    expect((await changes()).slice(before)).toHaveLength(1);
  });
});
