import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, importCatalog, postJson, setClock } from '../support/http';
import { useTestService } from '../support/local-service';
import { storedCounterItems } from '../support/stored-counters';
import { counterAttribute, keyAttribute } from '../../shared/adapters/dynamodb/counter-attributes';

/**
 * Both sides of a period's edge, through the local server: an event dated minutes after midnight that arrives
 * before it (within the future tolerance) counts in tomorrow without taking today's counters away, and a late
 * event of yesterday that arrives after midnight counts in yesterday, not today. At a day's, a week's (Sunday to
 * Monday) and a month's edge.
 */
const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');

const ADVERTISER = 41;
const FIRST_BANNER = 4100;
const BANNERS = 4;
const CAP = 60;

type Answer = { failedMessageIds: string[]; recordedEvents: number; deadLettered: unknown[] };
type Status = { deliverable: boolean; reasons: { entity: string; field: string; counter: number }[] };

const deliver = async (events: unknown[]): Promise<Answer> => {
  const response = await postJson(`${ctx.service.url}/_local/delivery`, events);
  expect(response.status).toBe(200);
  const answer = (await response.json()) as Answer;
  expect(answer).toMatchObject({ failedMessageIds: [], deadLettered: [], recordedEvents: events.length });
  return answer;
};
const counters = async (banner: number) =>
  (await (await demo().get(`/rest-api/banner/${banner}/limits.do`)).json()) as Record<string, number>;
const status = async (banner: number) =>
  (await (await demo().get(`/rest-api/banner/${banner}/limits/status.do`)).json()) as Status;
const impression = (banner: number, count: number, at?: string) => ({
  kind: 'impression',
  bannerId: banner,
  count,
  ...(at !== undefined ? { at } : {}),
});
const at = (edge: number, seconds: number) => new Date(edge + seconds * 1000).toISOString();

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    advertisers: [{ id: ADVERTISER }],
    campaigns: Array.from({ length: BANNERS }, (_, i) => ({ id: 410 + i, advertiserId: ADVERTISER })),
    banners: Array.from({ length: BANNERS }, (_, i) => ({ id: FIRST_BANNER + i, campaignId: 410 + i })),
  });
  await importCatalog(ctx.service.url, {
    users: [
      {
        id: 1,
        username: 'demo',
        password: 'demo-password',
        role: 'NETWORK',
        apiKeys: ['demo-key-0001'],
        permissions: Object.fromEntries(
          ['Manage Capping & Limitations', 'Daily Impressions Limit', 'Weekly Impressions Limit']
            .concat(['Monthly Impressions Limit', 'Total Impressions Limit'])
            .map((name) => [name, 'ENABLED']),
        ),
        access: [{ type: 'ADVERTISER', id: ADVERTISER, level: 'UPDATE' }],
      },
    ],
  });
});

afterEach(async () => {
  await setClock(ctx.service.url, { now: null });
});

const EDGES = [
  // a Wednesday to a Thursday: only the day ends
  { name: 'a day', edge: '2026-11-19T00:00:00Z', ends: ['daily'], banner: FIRST_BANNER },
  { name: 'a week (Sunday to Monday)', edge: '2026-11-23T00:00:00Z', ends: ['daily', 'weekly'], banner: 4101 },
  { name: 'a month', edge: '2026-12-01T00:00:00Z', ends: ['daily', 'monthly'], banner: 4102 },
] as { name: string; edge: string; ends: string[]; banner: number }[];

describe.each(EDGES)("at $name's edge", ({ edge: edgeText, ends, banner }) => {
  const edge = Date.parse(edgeText);
  const field = (period: string) => `${period}Impressions`;

  it("counts an early event in tomorrow, today's counters and caps stay until midnight, a late one in yesterday", async () => {
    await setClock(ctx.service.url, { now: at(edge, -150) }); // 23:57:30
    const caps = {
      dailyImpressionsLimit: `${CAP}`,
      weeklyImpressionsLimit: `${CAP}`,
      monthlyImpressionsLimit: `${CAP}`,
      totalImpressionsLimit: '1000000',
    };
    expect((await demo().post(`/rest-api/banner/${banner}/limits/set.do`, caps)).status).toBe(200);
    await deliver([impression(banner, CAP)]);
    expect((await status(banner)).deliverable).toBe(false);

    // dated 00:02 tomorrow, within the future tolerance: it counts in tomorrow
    await deliver([impression(banner, 1, at(edge, 120))]);
    expect(await counters(banner)).toMatchObject({
      dailyImpressions: CAP,
      weeklyImpressions: ends.includes('weekly') ? CAP : CAP + 1,
      monthlyImpressions: ends.includes('monthly') ? CAP : CAP + 1,
      totalImpressions: CAP + 1,
    });
    const reached = await status(banner);
    expect(reached.deliverable).toBe(false);
    expect(reached.reasons).toContainEqual(
      expect.objectContaining({ entity: `BANNER#${banner}`, field: 'dailyImpressionsLimit', counter: CAP }),
    );

    // a later event dated 23:58 today still counts today
    await deliver([impression(banner, 1, at(edge, -120))]);
    expect((await counters(banner))[field('daily')]).toBe(CAP + 1);

    // after midnight: tomorrow's counters hold the early event, and delivery goes on
    await setClock(ctx.service.url, { now: at(edge, 180) });
    expect(await counters(banner)).toMatchObject({
      dailyImpressions: 1,
      weeklyImpressions: ends.includes('weekly') ? 1 : CAP + 2,
      monthlyImpressions: ends.includes('monthly') ? 1 : CAP + 2,
      totalImpressions: CAP + 2,
    });
    // the daily cap no longer holds it back (a week's or month's that did not end still may)
    const fields = (await status(banner)).reasons.map((reason) => reason.field);
    expect(fields).not.toContain('dailyImpressionsLimit');
    for (const period of ends) expect(fields).not.toContain(`${period}ImpressionsLimit`);

    // a late event of yesterday, arriving at 00:03: in yesterday's counters and the total, not in today's
    await deliver([impression(banner, 5, at(edge, -60))]);
    expect(await counters(banner)).toMatchObject({ dailyImpressions: 1, totalImpressions: CAP + 7 });
    const item = (await storedCounterItems(ctx.service)).get(`BANNER#${banner}/COUNTERS`)!;
    expect(item[keyAttribute('daily', 'previous')]).toBe(`D#${at(edge, -60).slice(0, 10)}`);
    expect(Number(item[counterAttribute('daily', 'impressions', 'previous')])).toBe(CAP + 6);
  });
});

describe('a reset between an early event and midnight', () => {
  it("zeroes today's counters, the slot read now, and keeps tomorrow's early event for tomorrow", async () => {
    const edge = Date.parse('2026-11-20T00:00:00Z');
    const banner = 4103;
    await setClock(ctx.service.url, { now: at(edge, -150) });
    const caps = { dailyImpressionsLimit: `${CAP}`, totalImpressionsLimit: '1000000' };
    expect((await demo().post(`/rest-api/banner/${banner}/limits/set.do`, caps)).status).toBe(200);
    await deliver([impression(banner, CAP), impression(banner, 2, at(edge, 100))]);
    expect(await counters(banner)).toMatchObject({ dailyImpressions: CAP, totalImpressions: CAP + 2 });
    const asked = await demo().post(`/rest-api/banner/${banner}/limits/reset.do`, {
      limitCounters: 'DAILY_IMPRESSIONS',
    });
    expect(asked.status).toBe(200);
    const flushed = (await (await postJson(`${ctx.service.url}/_local/flush`, {})).json()) as { applied: number };
    expect(flushed.applied).toBe(1);
    expect(await counters(banner)).toMatchObject({ dailyImpressions: 0, totalImpressions: CAP + 2 });
    expect((await status(banner)).deliverable).toBe(true);
    await setClock(ctx.service.url, { now: at(edge, 180) });
    expect(await counters(banner)).toMatchObject({ dailyImpressions: 2 });
  });
});
