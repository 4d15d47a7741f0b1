import { describe, expect, it } from 'vitest';
import { hashAuth, setClock } from '../support/http';
import { useTestService } from '../support/local-service';

/**
 * Requests built exactly as the real Epom clients build them:
 * - the `epom` Ruby gem (0.10.x, on HTTMultiParty 0.3 over HTTParty 0.13): `generic_method` hands every parameter,
 *   the signature included, to HTTParty as `:query`, and HTTMultiParty's `post` moves `:query` into a form body
 *   (`options[:body] ||= options.delete(:query)`), so a POST carries them in an `application/x-www-form-urlencoded`
 *   body and only the default `output=json` in the URL; GET and DELETE keep every parameter in the query string.
 *   Arrays are `name[]=a&name[]=b` in both, and `timestamp = Time.now.to_i * 1000`, so every call of one second
 *   carries the same `(username, timestamp, hash)`;
 * - Epom's PHP cURL samples: form bodies from `http_build_query` (arrays as `name[0]=a`, booleans as `1`/`0`),
 *   and DELETE with the same data in the URL and in the body.
 */
const ctx = useTestService();
const base = () => ctx.service.url;

/** The gem's timestamp: whole seconds, in milliseconds. */
const gemTimestamp = () => Math.floor(ctx.service.clock.now().getTime() / 1000) * 1000;
const gemAuth = () => hashAuth('demo', 'demo-password', gemTimestamp());

/** HTTParty 0.13's query normaliser: scalars as `k=v`, arrays as `k[]=v` for each element. */
const httpartyQuery = (params: Record<string, string | number | string[]>): string =>
  Object.entries(params)
    .flatMap(([name, value]) =>
      Array.isArray(value)
        ? value.map((item) => `${name}[]=${encodeURIComponent(item)}`)
        : [`${name}=${encodeURIComponent(String(value))}`],
    )
    .join('&');

/** PHP's http_build_query: arrays as `k%5B0%5D=v`, booleans as 1 and 0. */
const httpBuildQuery = (params: Record<string, string | number | boolean | (string | number)[]>): string =>
  Object.entries(params)
    .flatMap(([name, value]) =>
      Array.isArray(value)
        ? value.map((item, index) => `${encodeURIComponent(`${name}[${index}]`)}=${encodeURIComponent(String(item))}`)
        : [
            `${encodeURIComponent(name)}=${encodeURIComponent(typeof value === 'boolean' ? (value ? '1' : '0') : String(value))}`,
          ],
    )
    .join('&');

/** A call as the gem sends it: a POST's parameters in a form body, a GET's or DELETE's in the query string. */
const gem = (method: string, path: string, params: Record<string, string | number | string[]> = {}) =>
  method === 'POST'
    ? fetch(`${base()}${path}?output=json`, {
        method,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: httpartyQuery({ ...gemAuth(), ...params }),
      })
    : fetch(`${base()}${path}?${httpartyQuery({ ...gemAuth(), output: 'json', ...params })}`, { method });

const php = (
  method: string,
  path: string,
  params: Record<string, string | number | boolean | (string | number)[]>,
  alsoInUrl = false,
) => {
  const body = httpBuildQuery({ ...hashAuth('demo', 'demo-password', ctx.service.clock.now().getTime()), ...params });
  return fetch(`${base()}${path}${alsoInUrl ? `?${body}` : ''}`, {
    method,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
};

const json = async (response: Response) => ({
  status: response.status,
  body: (await response.json()) as Record<string, unknown>,
});

describe('the epom Ruby gem (HTTMultiParty over HTTParty 0.13)', () => {
  it('runs its own test sequence: set, then a read in the same second with the same hash', async () => {
    await setClock(base(), { now: '2026-11-22T10:00:00.250Z' });
    const set = await json(
      await gem('POST', '/rest-api/campaign/102/limits/set.do', { dailyClicksLimit: 40, evenPacing: 'true' }),
    );
    expect(set).toMatchObject({ status: 200, body: { success: true, dailyClicksLimit: 40 } });
    await setClock(base(), { now: '2026-11-22T10:00:00.900Z' });
    const read = await json(await gem('GET', '/rest-api/campaign/102/limits.do'));
    expect(read).toMatchObject({ status: 200, body: { campaignId: 102, dailyClicksLimit: 40, evenPacing: true } });
  });

  it('resets with DELETE on reset.do and bracketed limitCounters, then deletes the limit', async () => {
    await setClock(base(), { now: '2026-11-22T10:01:00Z' });
    await gem('POST', '/rest-api/campaign/102/limits/set.do', { totalClicksLimit: 500 });
    const reset = await json(
      await gem('DELETE', '/rest-api/campaign/102/limits/reset.do', {
        limitCounters: ['DAILY_CLICKS', 'TOTAL_CLICKS'],
      }),
    );
    expect(reset).toMatchObject({
      status: 200,
      body: { success: true, limitCounters: ['DAILY_CLICKS', 'TOTAL_CLICKS'] },
    });
    const removed = await json(await gem('DELETE', '/rest-api/campaign/102/limits.do'));
    expect(removed).toMatchObject({ status: 200, body: { success: true, limitsSet: false } });
  });

  it('resets banner counters with POST reset.do, limitCounters[] and the signature in the form body', async () => {
    await setClock(base(), { now: '2026-11-22T10:01:30Z' });
    await gem('POST', '/rest-api/banner/1001/limits/set.do', { dailyImpressionsLimit: 50, totalImpressionsLimit: 900 });
    await setClock(base(), { now: '2026-11-22T10:01:31Z' });
    const reset = await json(
      await gem('POST', '/rest-api/banner/1001/limits/reset.do', {
        limitCounters: ['DAILY_IMPRESSIONS', 'TOTAL_IMPRESSIONS'],
      }),
    );
    expect(reset).toMatchObject({
      status: 200,
      body: { success: true, bannerId: 1001, limitCounters: ['DAILY_IMPRESSIONS', 'TOTAL_IMPRESSIONS'] },
    });
  });

  it('reads a bracketed id filter as a filter, never as no filter', async () => {
    await setClock(base(), { now: '2026-11-22T10:02:00Z' });
    const only = await json(await gem('GET', '/rest-api/campaign/limits.do', { campaignIds: ['100'] }));
    expect(only.status).toBe(200);
    const listed = [
      ...((only.body.limits as { campaignId: number }[] | undefined) ?? []).map((row) => row.campaignId),
      ...((only.body.withNoLimits as number[] | undefined) ?? []),
    ];
    expect(listed).toEqual([100]);
    const unreadable = await fetch(
      `${base()}/rest-api/campaign/limits.do?${httpartyQuery({ ...gemAuth() })}&campaignIds[x]=100`,
    );
    expect(await json(unreadable)).toMatchObject({
      status: 400,
      body: { errors: { campaignIds: expect.any(String) } },
    });
  });

  it('still refuses an identical write replayed inside the window', async () => {
    await setClock(base(), { now: '2026-11-22T10:03:00Z' });
    const first = await gem('POST', '/rest-api/banner/1000/limits/set.do', { dailyImpressionsLimit: 7 });
    expect(first.status).toBe(200);
    const replay = await gem('POST', '/rest-api/banner/1000/limits/set.do', { dailyImpressionsLimit: 7 });
    expect(replay.status).toBe(401);
    // the same hash on a different write is another request, not a replay
    expect((await gem('POST', '/rest-api/banner/1000/limits/set.do', { dailyImpressionsLimit: 8 })).status).toBe(200);
  });
});

describe("Epom's PHP cURL samples (http_build_query)", () => {
  it('sends booleans as 1 and 0 in a form body', async () => {
    await setClock(base(), { now: '2026-11-22T11:00:00Z' });
    const set = await json(
      await php('POST', '/rest-api/campaign/102/limits/set.do', {
        evenPacing: false,
        useLocalTime: true,
        timezoneOffset: 60,
      }),
    );
    expect(set).toMatchObject({ status: 200, body: { evenPacing: false, useLocalTime: true } });
  });

  it('deletes per-action limits with ids[N] and resets with DELETE carrying the data in the URL and the body', async () => {
    await setClock(base(), { now: '2026-11-22T11:01:00Z' });
    const ids: number[] = [];
    for (const actionId of [7, 8]) {
      const added = await json(
        await php('POST', '/rest-api/per-action/add/limit/CAMPAIGN/102.do', { actionId, totalConversionsLimit: 9 }),
      );
      ids.push((added.body.actionLimit as { id: number }).id);
    }
    await setClock(base(), { now: '2026-11-22T11:01:01Z' });
    const deleted = await json(
      await php('POST', '/rest-api/per-action/delete.do', { type: 'CAMPAIGN', entityId: 102, ids }),
    );
    expect(deleted).toMatchObject({ status: 200, body: { deletedIds: ids } });
    await setClock(base(), { now: '2026-11-22T11:01:02Z' });
    const reset = await json(
      await php('DELETE', '/rest-api/campaign/102/limits/reset.do', { limitCounters: ['ALL'] }, true),
    );
    expect(reset).toMatchObject({ status: 200, body: { limitCounters: ['ALL'] } });
  });

  it('signs a supply-side write in the form body as on the demand side', async () => {
    // past the minute a container remembers a signing user, so the supply family reads the user itself
    await setClock(base(), { now: '2026-11-22T11:05:00Z' });
    const set = await json(await php('POST', '/rest-api/site/20/limits/set.do', { dailyImpressionsLimit: 500 }));
    expect(set).toMatchObject({ status: 200, body: { siteId: 20, dailyImpressionsLimit: 500 } });
  });

  it('reads a banner bulk filter written bannerIds[0]=…', async () => {
    const response = await fetch(`${base()}/rest-api/banners/limits.do?${httpBuildQuery({ bannerIds: [1000] })}`, {
      headers: { 'X-Api-Key': 'demo-key-0001' },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { bannerId: number }[]).every((row) => row.bannerId === 1000)).toBe(true);
  });
});

describe('booleans and the last spec gaps', () => {
  const key = { 'X-Api-Key': 'demo-key-0001', 'content-type': 'application/x-www-form-urlencoded' };

  it('accepts true/false, 1/0, yes/no and on/off in any case, and names the accepted forms otherwise', async () => {
    for (const [text, value] of [
      ['YES', true],
      ['Off', false],
      ['1', true],
      ['FALSE', false],
    ] as const) {
      const response = await fetch(`${base()}/rest-api/campaign/100/limits/set.do`, {
        method: 'POST',
        headers: key,
        body: `evenPacing=${text}`,
      });
      expect(await json(response), text).toMatchObject({ status: 200, body: { evenPacing: value } });
    }
    const refused = await fetch(`${base()}/rest-api/campaign/100/limits/set.do`, {
      method: 'POST',
      headers: key,
      body: 'evenPacing=maybe',
    });
    expect(await json(refused)).toMatchObject({
      status: 400,
      body: { errors: { evenPacing: expect.stringContaining('yes/no') } },
    });
    const bulk = await fetch(`${base()}/rest-api/campaign/limits.do?activeCampaignOnly=On`, { headers: key });
    expect(bulk.status).toBe(200);
  });

  it('names both username and password when token.do gets neither', async () => {
    const response = await fetch(`${base()}/rest-api/auth/token.do`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(await json(response)).toMatchObject({
      status: 400,
      body: { errors: { username: 'is required', password: 'is required' } },
    });
  });

  it('answers a write in the offset its dates were read in, echoing timezoneOffset', async () => {
    for (const operation of ['set', 'update']) {
      const response = await fetch(`${base()}/rest-api/campaign/100/limits/${operation}.do`, {
        method: 'POST',
        headers: key,
        body: 'useLocalTime=true&timezoneOffset=90&startDate=2026-07-01-12-00',
      });
      expect(await json(response), operation).toMatchObject({
        status: 200,
        body: { startDate: '2026-07-01-12-00', timezoneOffset: 90 },
      });
    }
    const utc = await json(await fetch(`${base()}/rest-api/campaign/100/limits.do`, { headers: key }));
    expect(utc.body.startDate).toBe('2026-07-01-10-30');
  });
});
