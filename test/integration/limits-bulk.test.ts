import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, importCatalog } from '../support/http';
import { useTestService } from '../support/local-service';

const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');
const alice = () => apiClient(ctx.service.url, 'alice-key-0001');
const CAMPAIGNS = '/rest-api/campaign/limits.do';
const BANNERS = '/rest-api/banners/limits.do';

const json = async (response: Response) => ({
  status: response.status,
  body: (await response.json()) as Record<string, unknown>,
});
const query = (params: Record<string, string>) => `${CAMPAIGNS}?${new URLSearchParams(params)}`;

beforeAll(async () => {
  // campaign 104 of advertiser 10, inactive, with a limit; 100 and 101 limited; banner 1000 limited, 1001 not
  await importCatalog(ctx.service.url, { campaigns: [{ id: 104, advertiserId: 10, active: false }] });
  await demo().post('/rest-api/campaign/100/limits/set.do', {
    startDate: '2026-12-01 00:00',
    dailyClicksLimit: '5',
    dailyConversionsLimit: '3',
  });
  await demo().post('/rest-api/campaign/104/limits/set.do', { startDate: '2026-12-15 00:00', dailyClicksLimit: '6' });
  await demo().post('/rest-api/campaign/102/limits/set.do', { dailyClicksLimit: '7' });
  await demo().post('/rest-api/banner/1000/limits/set.do', {
    totalImpressionsLimit: '100',
    dailyConversionsLimit: '2',
  });
});

describe('GET /rest-api/campaign/limits.do', () => {
  it('reads every campaign the caller can access when campaignIds is omitted, deleted ones excluded', async () => {
    const { status, body } = await json(await alice().get(CAMPAIGNS));
    expect(status).toBe(200);
    expect((body.limits as { campaignId: number }[]).map((limit) => limit.campaignId)).toEqual([100, 104]);
    expect(body.withNoLimits).toEqual([101]);
    expect(body).not.toHaveProperty('notFound');
    // alice may not see conversions caps
    expect((body.limits as object[])[0]).toMatchObject({
      campaignId: 100,
      limitsSet: true,
      dailyClicksLimit: 5,
      dailyClicks: 0,
    });
    expect((body.limits as object[])[0]).not.toHaveProperty('dailyConversionsLimit');
  });

  it("filters on activity and on the limit's own start date, inclusively", async () => {
    expect((await json(await alice().get(query({ activeCampaignOnly: 'true' })))).body).toMatchObject({
      withNoLimits: [],
      limits: [{ campaignId: 100 }],
    });
    const from = (await json(await alice().get(query({ startDateFrom: '2026-12-15 00:00' })))).body;
    expect((from.limits as { campaignId: number }[]).map((limit) => limit.campaignId)).toEqual([104]);
    const to = (
      await json(await alice().get(query({ startDateFrom: '2026-12-01-00-00', startDateTo: '2026-12-01 00:00' })))
    ).body;
    expect((to.limits as { campaignId: number }[]).map((limit) => limit.campaignId)).toEqual([100]);
    const none = (await json(await alice().get(query({ startDateFrom: '2027-01-01 00:00' })))).body;
    expect(none).not.toHaveProperty('limits');
  });

  it('reports requested ids that are unknown or refused, as strings and as arrays', async () => {
    const { status, body } = await json(await alice().get(query({ campaignIds: '100,101,102,103,99999' })));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      limits: [{ campaignId: 100 }],
      withNoLimits: [101],
      notFound: '103, 99999',
      notFoundIds: [103, 99999],
      accessForbidden: '102',
      accessForbiddenIds: [102],
    });
  });

  it('truncates a long list of failed ids in the string but not in the array', async () => {
    const unknown = Array.from({ length: 60 }, (_, index) => 50_000 + index);
    const { body } = await json(await alice().get(query({ campaignIds: [100, ...unknown].join(',') })));
    expect(body.notFoundIds).toEqual(unknown);
    expect(body.notFound).toMatch(/… and 10 more$/);
  });

  it('answers 404 when every requested id is unknown and 403 when every one is refused', async () => {
    expect((await alice().get(query({ campaignIds: '99998,99999' }))).status).toBe(404);
    expect((await alice().get(query({ campaignIds: '102' }))).status).toBe(403);
    expect((await alice().get(query({ campaignIds: '102,99999' }))).status).toBe(403);
  });

  it('refuses malformed parameters and callers without Manage Capping & Limitations', async () => {
    for (const params of [
      { campaignIds: '1,x' },
      { startDateFrom: '2026-12' },
      { activeCampaignOnly: 'maybe' },
    ] as Record<string, string>[]) {
      const { status, body } = await json(await alice().get(query(params)));
      expect(status, JSON.stringify(params)).toBe(400);
      expect(Object.keys(body.errors as object)).toEqual(Object.keys(params));
    }
    await importCatalog(ctx.service.url, {
      users: [
        {
          id: 70,
          username: 'plain',
          password: 'plain-password',
          apiKeys: ['plain-key-0001'],
          access: [{ type: 'ADVERTISER', id: 10, level: 'UPDATE' }],
        },
      ],
    });
    expect((await apiClient(ctx.service.url, 'plain-key-0001').get(CAMPAIGNS)).status).toBe(403);
  });
});

describe('GET /rest-api/banners/limits.do', () => {
  it('answers a bare array, skipping banners without limits', async () => {
    const { status, body } = await json(await demo().get(`${BANNERS}?bannerIds=1000&bannerIds=1001`));
    expect(status).toBe(200);
    expect(body).toEqual([
      {
        bannerId: 1000,
        id: expect.any(Number),
        limitsSet: true,
        evenPacing: false,
        useLocalTime: false,
        dailyConversionsLimit: 2,
        dailyConversions: 0,
        totalImpressionsLimit: 100,
        totalImpressions: 0,
      },
    ]);
  });

  it('fails the whole call with 404 for one unknown id and 403 for one banner without UPDATE access', async () => {
    const unknown = await json(await demo().get(`${BANNERS}?bannerIds=1000,424242`));
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('424242');
    const refused = await json(await alice().get(`${BANNERS}?bannerIds=1000,1003`));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('1003');
  });

  it('requires bannerIds', async () => {
    for (const suffix of ['', '?bannerIds=', '?bannerIds=a']) {
      const { status, body } = await json(await demo().get(`${BANNERS}${suffix}`));
      expect(status, suffix).toBe(400);
      expect(body.errors).toHaveProperty('bannerIds');
    }
  });
});
