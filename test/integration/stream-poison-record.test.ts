import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, importCatalog, postJson, setClock } from '../support/http';
import { useTestService } from '../support/local-service';

const ctx = useTestService({ catalogFile: null });
const caller = () => apiClient(ctx.service.url, 'poison-key-0001');

const changes = async () =>
  (await (await fetch(`${ctx.service.url}/_local/limit-changes`)).json()) as { entityId: number; changeId: string }[];
const reached = async () => (await (await fetch(`${ctx.service.url}/_local/events`)).json()) as { id: string }[];

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    advertisers: [{ id: 70 }],
    campaigns: [
      { id: 700, advertiserId: 70 },
      { id: 701, advertiserId: 70 },
    ],
    banners: [{ id: 7010, campaignId: 701 }],
    users: [
      {
        id: 97,
        username: 'poison',
        password: 'poison-password',
        role: 'NETWORK',
        apiKeys: ['poison-key-0001'],
        permissions: { 'Manage Capping & Limitations': 'ENABLED', 'Daily Clicks Limit': 'ENABLED' },
        access: [{ type: 'ADVERTISER', id: 70, level: 'UPDATE' }],
      },
    ],
  });
});

describe('the local table stream after a history entry with an empty fields map', () => {
  it('still tells a later change and a later crossing', async () => {
    await setClock(ctx.service.url, { now: '2026-11-25T10:00:00Z' });
    // a record of zero caps only: its history entry's `fields` is an empty map
    expect((await caller().post('/rest-api/campaign/700/limits/set.do', { dailyClicksLimit: '0' })).status).toBe(200);
    expect((await caller().post('/rest-api/campaign/701/limits/set.do', { dailyClicksLimit: '5' })).status).toBe(200);
    const delivered = await postJson(`${ctx.service.url}/_local/delivery`, [
      { kind: 'click', bannerId: 7010, count: 5 },
    ]);
    expect(delivered.status).toBe(200);
    expect((await changes()).map((change) => change.entityId)).toEqual([700, 701]);
    expect((await reached()).map((event) => event.id)).toEqual(['CAMPAIGN#701/dailyClicksLimit=5/D#2026-11-25']);
    // the empty map is read as one: nothing was given up
    expect(await (await fetch(`${ctx.service.url}/_local/dead-letters`)).json()).toEqual([]);
    await setClock(ctx.service.url, { now: null });
  });

  it('dead-letters a record it cannot judge, lists it at /_local/dead-letters with its reason, and tells the next change', async () => {
    // a history entry under a key of no entity: the trigger's filter passes it, the consumer knows no such item
    await ctx.service.dependencies.store.put({
      Item: { PK: 'USER#97', SK: 'HISTORY#V#000000000001', at: '2026-11-25T10:00:00.000Z' },
    });
    expect((await caller().post('/rest-api/campaign/700/limits/set.do', { dailyClicksLimit: '7' })).status).toBe(200);
    expect((await changes()).map((change) => change.entityId)).toEqual([700, 701, 700]);
    const letters = (await (await fetch(`${ctx.service.url}/_local/dead-letters`)).json()) as Record<string, string>[];
    expect(letters).toEqual([
      {
        queue: 'HistoryEventsDlq',
        source: 'history-events',
        reason: 'UndecodableRecord: an item of a kind the consumer does not know: PK "USER#97"',
        body: expect.stringContaining('"SK":{"S":"HISTORY#V#000000000001"}'),
      },
    ]);
  });
});
