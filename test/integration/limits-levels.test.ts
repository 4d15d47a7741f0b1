import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, importCatalog } from '../support/http';
import { scanTable, useTestService } from '../support/local-service';

const ctx = useTestService();
const api = () => apiClient(ctx.service.url, 'demo-key-0001');

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    advertisers: [{ id: 12, deleted: true }],
    placements: [{ id: 203, siteId: 20, deleted: true }],
  });
});

const LEVELS = [
  { level: 'advertiser', id: 10, deleted: 12, idField: 'advertiserId', side: 'demand' },
  { level: 'campaign', id: 100, deleted: 103, idField: 'campaignId', side: 'demand' },
  { level: 'banner', id: 1000, deleted: 1004, idField: 'bannerId', side: 'demand' },
  { level: 'site', id: 20, deleted: 22, idField: 'siteId', side: 'supply' },
  { level: 'placement', id: 200, deleted: 203, idField: 'placementId', side: 'supply' },
] as const;

const partitionItems = async (pk: string) => (await scanTable(ctx.service)).filter((item) => item.PK === pk);

describe.each(LEVELS)('limits of a $level', ({ level, id, deleted, idField, side }) => {
  const base = `/rest-api/${level}/${id}`;
  const pk = `${level.toUpperCase()}#${id}`;

  it('reads limitsSet false, with the id field, before any record exists; update.do and reset.do answer 404', async () => {
    const read = await api().get(`${base}/limits.do`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ [idField]: id, limitsSet: false });
    expect((await api().post(`${base}/limits/update.do`, { dailyClicksLimit: '5' })).status).toBe(404);
    expect((await api().post(`${base}/limits/reset.do`, { limitCounters: 'DAILY_CLICKS' })).status).toBe(404);
    expect(await partitionItems(pk)).toHaveLength(1);
  });

  it('creates with set.do, merges with update.do, and lists counters and unknown parameters as ignored', async () => {
    const set = await api().post(`${base}/limits/set.do`, {
      dailyClicksLimit: '5',
      totalImpressionsLimit: '1000',
      evenPacing: 'true',
    });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({
      success: true,
      [idField]: id,
      limitsSet: true,
      dailyClicksLimit: 5,
      dailyClicks: 0,
      totalImpressionsLimit: 1000,
      totalImpressions: 0,
      evenPacing: true,
    });
    const update = await api().post(`${base}/limits/update.do`, {
      weeklyClicksLimit: '50',
      dailyClicks: '3',
      totalImpressions: '9',
      colour: 'red',
    });
    expect(update.status).toBe(200);
    const body = (await update.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      dailyClicksLimit: 5,
      weeklyClicksLimit: 50,
      totalImpressionsLimit: 1000,
      evenPacing: true,
      dailyClicks: 0,
      ignoredFields: ['dailyClicks', 'totalImpressions', 'colour'],
      ignoredFieldReasons: {
        dailyClicks: expect.stringContaining('read-only'),
        totalImpressions: expect.stringContaining('read-only'),
        colour: 'unknown parameter',
      },
    });
    const read = await (await api().get(`${base}/limits.do`)).json();
    expect(read).toEqual({
      [idField]: id,
      id: body.id,
      limitsSet: true,
      evenPacing: true,
      useLocalTime: false,
      dailyClicksLimit: 5,
      dailyClicks: 0,
      weeklyClicksLimit: 50,
      weeklyClicks: 0,
      totalImpressionsLimit: 1000,
      totalImpressions: 0,
    });
  });

  it('refuses an inconsistent change with 400 naming the field, and saves nothing', async () => {
    const before = await partitionItems(pk);
    const response = await api().post(`${base}/limits/update.do`, { dailyClicksLimit: '51', evenPacing: 'false' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      success: false,
      errors: { dailyClicksLimit: expect.stringContaining('weeklyClicksLimit') },
    });
    expect(await partitionItems(pk)).toEqual(before);
  });

  it(`queues a reset without touching the counters${side === 'demand' ? ', accepting request counter names' : ''}`, async () => {
    const queued = ctx.service.resetQueue.size;
    const response = await api().post(`${base}/limits/reset.do`, {
      limitCounters: ['DAILY_CLICKS,TOTAL_IMPRESSIONS', 'TOTAL_REQUESTS'],
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      success: true,
      limitCounters: ['DAILY_CLICKS', 'TOTAL_IMPRESSIONS', 'TOTAL_REQUESTS'],
    });
    expect(ctx.service.resetQueue.size).toBe(queued + 1);
    for (const bad of [
      {},
      { limitCounters: '' },
      { limitCounters: 'daily_clicks' },
      { limitCounters: 'DAILY_CLICKS,NOPE' },
    ] as Record<string, string>[]) {
      const refused = await api().post(`${base}/limits/reset.do`, bad);
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(await refused.json()).toMatchObject({ errors: { limitCounters: expect.any(String) } });
    }
    expect(ctx.service.resetQueue.size).toBe(queued + 1);
  });

  it('deletes the record and its counters; a later read says limitsSet false; deleting again is 200', async () => {
    const response = await api().delete(`${base}/limits.do`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true, limitsSet: false });
    expect(await (await api().get(`${base}/limits.do`)).json()).toEqual({ [idField]: id, limitsSet: false });
    const kept = (await partitionItems(pk)).map((item) => String(item.SK));
    // history stays (its entries and the entity's history version)
    expect(kept.filter((key) => !key.startsWith('HISTORY'))).toEqual(['ENTITY']);
    expect((await api().delete(`${base}/limits.do`)).status).toBe(200);
  });

  it('answers 404 for unknown and deleted entities on every operation, and 400 for a malformed id', async () => {
    for (const missing of [99999, deleted]) {
      const path = `/rest-api/${level}/${missing}`;
      expect((await api().get(`${path}/limits.do`)).status).toBe(404);
      expect((await api().post(`${path}/limits/set.do`, { dailyClicksLimit: '1' })).status).toBe(404);
      expect((await api().post(`${path}/limits/update.do`, { dailyClicksLimit: '1' })).status).toBe(404);
      expect((await api().post(`${path}/limits/reset.do`, { limitCounters: 'ALL' })).status).toBe(404);
      expect((await api().delete(`${path}/limits.do`)).status).toBe(404);
    }
    const malformed = await api().get(`/rest-api/${level}/abc/limits.do`);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ errors: { [idField]: expect.any(String) } });
  });
});
