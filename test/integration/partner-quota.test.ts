import { describe, expect, it } from 'vitest';
import { meterWindow, partnerPlan } from '../../shared/domain/metering/partner-quota';
import { meterKey } from '../../shared/table/keys';
import { hashAuth, postForm, setClock } from '../support/http';
import { scanTable, useTestService } from '../support/local-service';

/**
 * A partner that signs in the form body is let through by the authorizer on the anonymous plan; the family handler
 * keeps its own quota, with a keyed partner's numbers, spent only once its signature is verified.
 */
const ctx = useTestService();
const base = () => ctx.service.url;
const PLAN = partnerPlan();
const DEMO_USER_ID = 1;
const set = '/rest-api/campaign/102/limits/set.do';

let value = 0;
/** One body-signed write of the demo user; each a different request, so none is a replay. */
const partnerWrite = () =>
  postForm(`${base()}${set}`, {
    ...hashAuth('demo', 'demo-password', ctx.service.clock.now().getTime()),
    dailyClicksLimit: String(++value),
  });

const meterOf = async (at: Date) =>
  ctx.service.dependencies.store.get(meterKey(DEMO_USER_ID, meterWindow(PLAN, at).day));

const seedMeter = async (at: Date, counters: { win: number; winCount: number; dayCount: number }) =>
  ctx.service.dependencies.store.put({ Item: { ...meterKey(DEMO_USER_ID, meterWindow(PLAN, at).day), ...counters } });

const envelope = async (response: Response) => ({
  status: response.status,
  retryAfter: response.headers.get('retry-after'),
  body: (await response.json()) as Record<string, unknown>,
});

describe('the quota of a partner signing in the form body', () => {
  it("is not spent by a stranger's credential-less or badly signed requests", async () => {
    const now = new Date('2026-11-24T08:00:00.000Z');
    await setClock(base(), { now: now.toISOString() });
    const strangers = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        postForm(
          `${base()}${set}`,
          index % 2 === 0
            ? { dailyClicksLimit: '1' }
            : { ...hashAuth('demo', 'not-the-password', now.getTime()), dailyClicksLimit: '1' },
        ),
      ),
    );
    expect(strangers.map((response) => response.status)).toEqual(Array(40).fill(401));
    expect((await scanTable(ctx.service)).filter((item) => String(item.PK).startsWith('METER#'))).toEqual([]);
    expect((await partnerWrite()).status).toBe(200);
    expect(await meterOf(now)).toMatchObject({ dayCount: 1, winCount: 1, win: meterWindow(PLAN, now).window });
  });

  it('is not spent by callers API Gateway meters itself (API key, hash in the query)', async () => {
    const now = new Date('2026-11-20T09:00:00.000Z');
    await setClock(base(), { now: now.toISOString() });
    const keyed = await postForm(`${base()}${set}`, { dailyClicksLimit: '2' }, { 'X-Api-Key': 'demo-key-0001' });
    expect(keyed.status).toBe(200);
    const query = new URLSearchParams({ ...hashAuth('demo', 'demo-password', now.getTime()), dailyClicksLimit: '3' });
    expect((await fetch(`${base()}${set}?${query}`, { method: 'POST' })).status).toBe(200);
    expect(await meterOf(now)).toBeUndefined();
  });

  it('answers 429 RATE_LIMITED over the rate, to as many concurrent requests as exceed the window', async () => {
    const now = new Date('2026-11-24T10:00:00.000Z');
    await setClock(base(), { now: now.toISOString() });
    const at = meterWindow(PLAN, now);
    await seedMeter(now, { win: at.window, winCount: at.windowLimit - 5, dayCount: at.windowLimit - 5 });
    const answers = await Promise.all(Array.from({ length: 12 }, () => partnerWrite().then(envelope)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(5);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(7);
    for (const answer of refused) {
      expect(answer).toMatchObject({ status: 429, body: { success: false, code: 'RATE_LIMITED' } });
      expect(Number(answer.retryAfter)).toBe(at.secondsToNextWindow);
    }
    expect(await meterOf(now)).toMatchObject({ winCount: at.windowLimit, dayCount: at.windowLimit });
    // the next window takes requests again
    await setClock(base(), { advanceSeconds: at.secondsToNextWindow });
    expect((await partnerWrite()).status).toBe(200);
  });

  it("answers 429 RATE_LIMITED over the day's quota until the next UTC day", async () => {
    const now = new Date('2026-11-24T23:59:00.000Z');
    await setClock(base(), { now: now.toISOString() });
    const at = meterWindow(PLAN, now);
    await seedMeter(now, { win: at.window - 1, winCount: 1, dayCount: PLAN.quotaPerDay - 1 });
    expect((await partnerWrite()).status).toBe(200);
    const over = await envelope(await partnerWrite());
    expect(over).toMatchObject({ status: 429, retryAfter: '60', body: { code: 'RATE_LIMITED' } });
    await setClock(base(), { now: '2026-11-25T00:00:00.000Z' });
    expect((await partnerWrite()).status).toBe(200);
  });
});

describe('the rate-limit fields of a partner signing in the form body', () => {
  it('name the plan and what is left on every answer, a 4xx and the 429 included', async () => {
    const now = new Date('2026-11-25T23:59:00.000Z');
    await setClock(base(), { now: now.toISOString() });
    const at = meterWindow(PLAN, now);
    const policy = `"day";q=${PLAN.quotaPerDay};w=86400, "rate";q=${at.windowLimit};w=${at.windowSeconds}`;
    await seedMeter(now, { win: at.window, winCount: at.windowLimit - 3, dayCount: 41 });
    const first = await partnerWrite();
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe(policy);
    // 60 s to 00:00 UTC; the window of 2 s began at 23:59:00
    expect(first.headers.get('ratelimit')).toBe(
      `"day";r=${PLAN.quotaPerDay - 42};t=60, "rate";r=2;t=${at.secondsToNextWindow}`,
    );
    const invalid = await postForm(`${base()}${set}`, {
      ...hashAuth('demo', 'demo-password', now.getTime()),
      dailyClicksLimit: '-1',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('ratelimit')).toBe(
      `"day";r=${PLAN.quotaPerDay - 43};t=60, "rate";r=1;t=${at.secondsToNextWindow}`,
    );
    expect((await partnerWrite()).headers.get('ratelimit')).toContain('"rate";r=0;');
    const refused = await partnerWrite();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-policy')).toBe(policy);
    expect(refused.headers.get('ratelimit')).toBe(
      `"day";r=${PLAN.quotaPerDay - 44};t=60, "rate";r=0;t=${at.secondsToNextWindow}`,
    );
  });

  it("are sent on a replayed write's 401 too, and every answer's status declares the fields it carries", async () => {
    await setClock(base(), { now: '2026-11-26T10:00:00.000Z' });
    const signed = { ...hashAuth('demo', 'demo-password', ctx.service.clock.now().getTime()), dailyClicksLimit: '9' };
    const written = await postForm(`${base()}${set}`, signed);
    const replayed = await postForm(`${base()}${set}`, signed);
    const invalid = await postForm(`${base()}${set}`, { ...signed, dailyClicksLimit: '-1' });
    expect([written.status, replayed.status, invalid.status]).toEqual([200, 401, 400]);
    expect(((await replayed.json()) as { code: string }).code).toBe('REQUEST_REPLAYED');
    const document = (await (await fetch(`${base()}/rest-api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { $ref?: string; headers?: object }> }>>;
      components: { responses: Record<string, { headers?: object }> };
    };
    const declared = (status: number) => {
      const response = document.paths['/rest-api/campaign/{campaignId}/limits/set.do']!.post!.responses[status]!;
      const resolved = response.$ref ? document.components.responses[response.$ref.split('/').pop()!]! : response;
      return Object.keys(resolved.headers ?? {}).map((name) => name.toLowerCase());
    };
    for (const answer of [written, replayed, invalid]) {
      const sent = ['ratelimit-policy', 'ratelimit'].filter((name) => answer.headers.has(name));
      expect(sent, String(answer.status)).toEqual(['ratelimit-policy', 'ratelimit']);
      expect(declared(answer.status), String(answer.status)).toEqual(expect.arrayContaining(sent));
    }
  });

  it('are not sent to callers API Gateway meters, whose counts only API Gateway knows', async () => {
    await setClock(base(), { now: null });
    const keyed = await postForm(`${base()}${set}`, { dailyClicksLimit: '2' }, { 'X-Api-Key': 'demo-key-0001' });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('ratelimit')).toBeNull();
    expect(keyed.headers.get('ratelimit-policy')).toBeNull();
  });
});
