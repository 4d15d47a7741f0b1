import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, importCatalog } from '../support/http';
import { probingRequests, scanTable, useTestService, type RequestProbe } from '../support/local-service';

const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');
const alice = () => apiClient(ctx.service.url, 'alice-key-0001');
const viewer = () => apiClient(ctx.service.url, 'viewer-key-0001');
const publisher = () => apiClient(ctx.service.url, 'publisher-key-0001');
const campaignOnly = () => apiClient(ctx.service.url, 'campaign-only-key1');

const json = async (response: Response) => ({
  status: response.status,
  body: (await response.json()) as Record<string, unknown>,
});
const list = (type: string, id: number) => demo().get(`/rest-api/per-action/limits/${type}/${id}.do`);
const add = (type: string, id: number, fields: Record<string, string>, client = demo()) =>
  client.post(`/rest-api/per-action/add/limit/${type}/${id}.do`, fields);
const update = (type: string, id: number, fields: Record<string, string>, client = demo()) =>
  client.post(`/rest-api/per-action/update/limit/${type}/${id}.do`, fields);

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    users: [
      {
        id: 80,
        username: 'campaign-only',
        password: 'campaign-only-pw',
        apiKeys: ['campaign-only-key1'],
        permissions: { 'Manage Capping & Limitations': 'ENABLED', 'Campaign Per Action Limit': 'ENABLED' },
        access: [{ type: 'CAMPAIGN', id: 100, level: 'UPDATE' }],
      },
    ],
  });
});

describe('per-action limits', () => {
  it('lists none at first, with the switch on demand types only', async () => {
    expect((await json(await list('CAMPAIGN', 100))).body).toEqual({
      success: true,
      actionLimits: [],
      actionLimitsEnabled: false,
    });
    expect((await json(await list('SITE', 20))).body).toEqual({ success: true, actionLimits: [] });
  });

  it('adds a limit, switching the entity on, and lists it with its action and four figures', async () => {
    const { status, body } = await json(await add('CAMPAIGN', 100, { actionId: '7', dailyConversionsLimit: '5' }));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      actionLimitsEnabled: true,
      actionLimit: { entityId: 100, actionId: 7, dailyConversionsLimit: 5, totalConversionsLimit: 0 },
    });
    const listed = (await json(await list('CAMPAIGN', 100))).body;
    expect(listed).toEqual({
      success: true,
      actionLimitsEnabled: true,
      actionLimits: [
        {
          id: expect.any(Number),
          entityId: 100,
          actionId: 7,
          dailyConversionsLimit: 5,
          totalConversionsLimit: 0,
          dailyConversions: 0,
          totalConversions: 0,
        },
      ],
    });
  });

  it('makes add an upsert that changes only the cap sent, keeping the record id', async () => {
    const first = (await json(await list('CAMPAIGN', 100))).body.actionLimits as { id: number }[];
    const { body } = await json(await add('CAMPAIGN', 100, { actionId: '7', totalConversionsLimit: '50' }));
    expect(body.actionLimit).toMatchObject({ id: first[0]!.id, dailyConversionsLimit: 5, totalConversionsLimit: 50 });
    expect(((await json(await list('CAMPAIGN', 100))).body.actionLimits as unknown[]).length).toBe(1);
  });

  it('refuses bad caps and unknown actions with 400, writing nothing', async () => {
    const before = await scanTable(ctx.service);
    for (const [fields, field] of [
      [{ actionId: '7' }, 'dailyConversionsLimit'],
      [{ actionId: '7', dailyConversionsLimit: '-1' }, 'dailyConversionsLimit'],
      [{ actionId: '7', totalConversionsLimit: '1.5' }, 'totalConversionsLimit'],
      [{ actionId: '7', dailyConversionsLimit: '51' }, 'dailyConversionsLimit'],
      [{ actionId: '424242', dailyConversionsLimit: '1' }, 'actionId'],
      [{ dailyConversionsLimit: '1' }, 'actionId'],
    ] as const) {
      const { status, body } = await json(await add('CAMPAIGN', 100, fields));
      expect(status, JSON.stringify(fields)).toBe(400);
      expect(body.errors, JSON.stringify(fields)).toHaveProperty(field);
    }
    expect(await scanTable(ctx.service)).toEqual(before);
  });

  it('updates an existing limit only, and answers 404 naming entity and action otherwise', async () => {
    expect(
      (await json(await update('CAMPAIGN', 100, { actionId: '7', dailyConversionsLimit: '4' }))).body.actionLimit,
    ).toMatchObject({
      dailyConversionsLimit: 4,
      totalConversionsLimit: 50,
    });
    const missing = await json(await update('CAMPAIGN', 100, { actionId: '8', dailyConversionsLimit: '4' }));
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/CAMPAIGN 100.*action 8/);
  });

  it('does not switch the entity on when updating', async () => {
    await add('BANNER', 1000, { actionId: '8', totalConversionsLimit: '9' });
    await ctx.service.dependencies.store.put({ Item: { PK: 'BANNER#1000', SK: 'ACTION_SWITCH', enabled: false } });
    const { body } = await json(await update('BANNER', 1000, { actionId: '8', totalConversionsLimit: '10' }));
    expect(body).toMatchObject({ actionLimitsEnabled: false, actionLimit: { totalConversionsLimit: 10 } });
  });

  it('refuses a {type} not in exact upper case before looking anything up', async () => {
    for (const response of [
      await demo().get('/rest-api/per-action/limits/campaign/100.do'),
      await demo().get('/rest-api/per-action/limits/campaign/99999.do'),
      await viewer().get('/rest-api/per-action/limits/Campaign/100.do'),
      await add('campaign', 100, { actionId: '7', dailyConversionsLimit: '1' }),
      await demo().post('/rest-api/per-action/delete.do', { type: 'campaign', entityId: '100', ids: '1' }),
      await demo().post('/rest-api/per-action/limits/campaign/100/enable.do'),
    ]) {
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ errors: { type: expect.any(String) } });
    }
  });

  it('answers 404 for unknown or deleted entities and 403 without a share', async () => {
    expect((await list('CAMPAIGN', 99999)).status).toBe(404);
    expect((await list('CAMPAIGN', 103)).status).toBe(404);
    expect((await alice().get('/rest-api/per-action/limits/CAMPAIGN/102.do')).status).toBe(403);
  });

  it('refuses callers without the per-action permission with permissionDenied', async () => {
    for (const response of [
      await viewer().get('/rest-api/per-action/limits/CAMPAIGN/100.do'),
      await add('CAMPAIGN', 100, { actionId: '7', dailyConversionsLimit: '1' }, viewer()),
      await update('CAMPAIGN', 100, { actionId: '7', dailyConversionsLimit: '1' }, viewer()),
      await viewer().post('/rest-api/per-action/delete.do', { type: 'CAMPAIGN', entityId: '100', ids: '1' }),
      await alice().get('/rest-api/per-action/limits/SITE/20.do'),
    ]) {
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ success: false, permissionDenied: true });
    }
    const denied = await json(await viewer().get('/rest-api/per-action/limits/CAMPAIGN/100.do'));
    expect(denied.body).toMatchObject({
      success: false,
      permissionDenied: true,
      permission: 'Campaign Per Action Limit',
    });
  });

  it('uses the inventory permission on sites and placements, where limits need no switch', async () => {
    const { status, body } = await json(
      await add('PLACEMENT', 200, { actionId: '9', dailyConversionsLimit: '3' }, publisher()),
    );
    expect(status).toBe(200);
    expect(body).not.toHaveProperty('actionLimitsEnabled');
  });

  it("deletes by record id all or nothing, naming an id that is not the entity's", async () => {
    await add('CAMPAIGN', 100, { actionId: '8', dailyConversionsLimit: '2' });
    const own = ((await json(await list('CAMPAIGN', 100))).body.actionLimits as { id: number }[]).map(
      (limit) => limit.id,
    );
    const foreign = (
      (await json(await demo().get('/rest-api/per-action/limits/BANNER/1000.do'))).body.actionLimits as { id: number }[]
    )[0]!.id;
    const refused = await json(
      await demo().post('/rest-api/per-action/delete.do', {
        type: 'CAMPAIGN',
        entityId: '100',
        ids: [...own, foreign].join(','),
      }),
    );
    expect(refused.status).toBe(404);
    expect(refused.body.message).toContain(String(foreign));
    expect(((await json(await list('CAMPAIGN', 100))).body.actionLimits as unknown[]).length).toBe(2);
    expect((await demo().post('/rest-api/per-action/delete.do', { type: 'CAMPAIGN', entityId: '100' })).status).toBe(
      400,
    );
    const deleted = await json(
      await demo().post('/rest-api/per-action/delete.do', { type: 'CAMPAIGN', entityId: '100', ids: own.map(String) }),
    );
    expect(deleted.status).toBe(200);
    expect(((await json(await list('CAMPAIGN', 100))).body.actionLimits as unknown[]).length).toBe(0);
  });

  it('switches on and off; off deletes every per-action limit of the entity', async () => {
    await add('CAMPAIGN', 100, { actionId: '7', dailyConversionsLimit: '2' });
    await add('CAMPAIGN', 100, { actionId: '9', dailyConversionsLimit: '2' });
    const off = await json(await demo().post('/rest-api/per-action/limits/CAMPAIGN/100/disable.do'));
    expect(off).toEqual({ status: 200, body: { success: true, entityId: 100, actionLimitsEnabled: false } });
    expect((await json(await list('CAMPAIGN', 100))).body).toEqual({
      success: true,
      actionLimits: [],
      actionLimitsEnabled: false,
    });
    const on = await json(await alice().post('/rest-api/per-action/limits/CAMPAIGN/100/enable.do'));
    expect(on.body).toMatchObject({ actionLimitsEnabled: true });
    expect((await json(await list('CAMPAIGN', 100))).body).toMatchObject({ actionLimitsEnabled: true });
  });

  it('allows the switch only on demand types, on existing entities, with UPDATE on the owning advertiser', async () => {
    expect((await demo().post('/rest-api/per-action/limits/SITE/20/enable.do')).status).toBe(400);
    expect((await demo().post('/rest-api/per-action/limits/PLACEMENT/200/disable.do')).status).toBe(400);
    expect((await demo().post('/rest-api/per-action/limits/CAMPAIGN/103/enable.do')).status).toBe(404);
    expect((await demo().post('/rest-api/per-action/limits/BANNER/99999/disable.do')).status).toBe(404);
    const owner = await json(await campaignOnly().post('/rest-api/per-action/limits/CAMPAIGN/100/enable.do'));
    expect(owner.status).toBe(403);
    expect(owner.body.message).toContain('advertiser 10');
    expect((await campaignOnly().get('/rest-api/per-action/limits/CAMPAIGN/100.do')).status).toBe(200);
    const capping = await json(
      await apiClient(ctx.service.url, 'viewer-key-0001').post('/rest-api/per-action/limits/CAMPAIGN/100/enable.do'),
    );
    expect(capping.status).toBe(403);
  });

  it('keeps one record per (entity, action) under 20 concurrent adds, with unique record ids overall', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        add('ADVERTISER', 10, { actionId: '9', dailyConversionsLimit: String(index + 1) }).then((r) => r.status),
      ),
    );
    expect(statuses).toEqual(statuses.map(() => 200));
    const limits = (await json(await demo().get('/rest-api/per-action/limits/ADVERTISER/10.do'))).body.actionLimits as {
      id: number;
      actionId: number;
    }[];
    expect(limits.filter((limit) => limit.actionId === 9)).toHaveLength(1);
    const ids = (await scanTable(ctx.service))
      .filter((item) => String(item.SK).startsWith('ACTION#'))
      .map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('the per-action list', () => {
  const probing = <T>(probe: RequestProbe, call: () => Promise<T>) => probingRequests(ctx.service, probe, call);

  it('reads the entity and its per-action items in one round trip', async () => {
    const path = '/rest-api/per-action/limits/CAMPAIGN/100.do';
    expect((await demo().get(path)).status).toBe(200);
    const spans: { command: string; start: number; end: number }[] = [];
    const response = await probing(
      async (command, _input, send) => {
        const start = performance.now();
        try {
          return await send();
        } finally {
          spans.push({ command, start, end: performance.now() });
        }
      },
      () => demo().get(path),
    );
    expect(response.status).toBe(200);
    expect(spans.map((span) => span.command).sort()).toEqual(['BatchGetItemCommand', 'QueryCommand']);
    expect(Math.max(...spans.map((span) => span.start))).toBeLessThan(Math.min(...spans.map((span) => span.end)));
  });

  it('answers a refusal rather than a failed read of the items it would not have shown', async () => {
    const failingItemsQuery: RequestProbe = async (command, input, send) => {
      const values = input.ExpressionAttributeValues as Record<string, { S?: string }> | undefined;
      if (command === 'QueryCommand' && Object.values(values ?? {}).some((value) => value.S === 'ACT'))
        throw Object.assign(new Error('Rate of requests exceeds the allowed throughput'), {
          name: 'ProvisionedThroughputExceededException',
        });
      return send();
    };
    const refused = await probing(failingItemsQuery, () => alice().get('/rest-api/per-action/limits/CAMPAIGN/102.do'));
    expect(refused.status).toBe(403);
    const busy = await probing(failingItemsQuery, () => list('CAMPAIGN', 100));
    expect(busy.status).toBe(503);
  });
});
