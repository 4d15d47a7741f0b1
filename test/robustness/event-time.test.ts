import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, importCatalog, postJson, setClock } from '../support/http';
import { probingRequests, useTestService } from '../support/local-service';
import { storedCounterItems } from '../support/stored-counters';
import { counterAttribute, QUIET_IMPRESSIONS_ATTRIBUTE } from '../../shared/adapters/dynamodb/counter-attributes';
import { METRICS, PERIODS } from '../../shared/domain/limits/metrics';

/**
 * Events of every shape real ad servers send: late (an `at` of an earlier period), regrouped after a timeout, in
 * every order of kinds. Each is counted once and none blocks its message group.
 */
const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');

const TODAY = '2026-11-18T10:00:00Z'; // a Wednesday: yesterday is in the same week and month
const YESTERDAY = '2026-11-17T09:30:00Z';
const ADVERTISER = 80;
const FIRST_BANNER = 8000;
const BANNERS = 20;

type Answer = { failedMessageIds: string[]; recordedEvents: number; deadLettered: unknown[] };

const deliver = async (body: unknown): Promise<Answer> => {
  const response = await postJson(`${ctx.service.url}/_local/delivery`, body);
  expect(response.status).toBe(200);
  return (await response.json()) as Answer;
};
const counters = async (path: string) =>
  (await (await demo().get(`${path}/limits.do`)).json()) as Record<string, number>;

let nextBanner = FIRST_BANNER;
/** A banner of its own for each case, with a limit record so that limits.do shows its counters. */
const freshBanner = async (): Promise<number> => {
  const banner = nextBanner++;
  const caps = {
    dailyImpressionsLimit: '1000000',
    weeklyImpressionsLimit: '1000000',
    monthlyImpressionsLimit: '1000000',
    totalImpressionsLimit: '1000000',
    totalClicksLimit: '1000000',
    totalConversionsLimit: '1000000',
  };
  expect((await demo().post(`/rest-api/banner/${banner}/limits/set.do`, caps)).status).toBe(200);
  return banner;
};

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    advertisers: [{ id: ADVERTISER, noConversionHoursThreshold: 24, noConversionImpressionsThreshold: 100 }],
    campaigns: Array.from({ length: BANNERS }, (_, i) => ({ id: 800 + i, advertiserId: ADVERTISER })),
    banners: Array.from({ length: BANNERS }, (_, i) => ({ id: FIRST_BANNER + i, campaignId: 800 + i })),
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
          [
            'Manage Capping & Limitations',
            ...['Daily', 'Weekly', 'Monthly', 'Total'].flatMap((p) =>
              ['Impressions', 'Clicks', 'Conversions'].map((m) => `${p} ${m} Limit`),
            ),
            'Daily Budget',
            'Budget',
          ].map((name) => [name, 'ENABLED']),
        ),
        access: [{ type: 'ADVERTISER', id: ADVERTISER, level: 'UPDATE' }],
      },
    ],
  });
});

afterEach(async () => {
  await setClock(ctx.service.url, { now: null });
});

describe('a late event', () => {
  it('counts in the total and the current week, not in today, and never blocks its group', async () => {
    await setClock(ctx.service.url, { now: TODAY });
    const banner = await freshBanner();
    expect((await deliver([{ kind: 'impression', bannerId: banner, count: 10 }])).failedMessageIds).toEqual([]);
    const late = await deliver([{ kind: 'impression', bannerId: banner, count: 5, at: YESTERDAY }]);
    expect(late).toMatchObject({ failedMessageIds: [], recordedEvents: 1, deadLettered: [] });
    expect(await counters(`/rest-api/banner/${banner}`)).toMatchObject({
      dailyImpressions: 10,
      weeklyImpressions: 15,
      monthlyImpressions: 15,
      totalImpressions: 15,
    });
    // the group moves on: the next message counts
    expect((await deliver([{ kind: 'impression', bannerId: banner, count: 1 }])).failedMessageIds).toEqual([]);
    expect(await counters(`/rest-api/banner/${banner}`)).toMatchObject({ dailyImpressions: 11, totalImpressions: 16 });
  });

  type Event = { kind: string; count?: number; revenue?: string; actionId?: number; at?: string };
  const today = (fields: Event): Event => fields;
  const yesterday = (fields: Event): Event => ({ ...fields, at: YESTERDAY });
  it.each([
    [
      'a conversion, then a late impression',
      [today({ kind: 'conversion' }), yesterday({ kind: 'impression', count: 4 })],
    ],
    [
      'an impression, then a late click',
      [today({ kind: 'impression', count: 3 }), yesterday({ kind: 'click', count: 2 })],
    ],
    [
      'an impression, then a late conversion',
      [today({ kind: 'impression', count: 3 }), yesterday({ kind: 'conversion' })],
    ],
    [
      'a conversion, then a late conversion',
      [today({ kind: 'conversion' }), yesterday({ kind: 'conversion', count: 2 })],
    ],
    [
      'a click, then a late impression with revenue',
      [today({ kind: 'click' }), yesterday({ kind: 'impression', count: 2, revenue: '0.125' })],
    ],
    [
      'an action conversion, then a late one',
      [today({ kind: 'conversion', actionId: 5 }), yesterday({ kind: 'conversion', actionId: 5, count: 3 })],
    ],
    [
      'late, current, late again',
      [
        yesterday({ kind: 'impression', count: 2 }),
        today({ kind: 'impression', count: 3 }),
        yesterday({ kind: 'impression', count: 4 }),
      ],
    ],
  ])('%s: every message counts once in the total', async (_name, events) => {
    await setClock(ctx.service.url, { now: TODAY });
    const banner = await freshBanner();
    const totals: Record<string, number> = { impressions: 0, clicks: 0, conversions: 0 };
    for (const event of events) {
      const answer = await deliver([{ ...event, bannerId: banner }]);
      expect(answer.failedMessageIds).toEqual([]);
      const metric = `${event.kind}s`;
      totals[metric] = totals[metric]! + (event.count ?? 1);
    }
    expect(await counters(`/rest-api/banner/${banner}`)).toMatchObject({
      totalImpressions: totals.impressions,
      totalClicks: totals.clicks,
      totalConversions: totals.conversions,
    });
  });
});

describe('a batch that committed and comes back regrouped', () => {
  it('with a new message of the same at: the new one counts, the old one does not count again', async () => {
    await setClock(ctx.service.url, { now: TODAY });
    const banner = await freshBanner();
    const at = '2026-11-18T09:59:00Z';
    const first = { messageId: `regrouped-${banner}-1`, body: { kind: 'impression', bannerId: banner, count: 2, at } };
    const second = { messageId: `regrouped-${banner}-2`, body: { kind: 'impression', bannerId: banner, count: 3, at } };
    expect((await deliver({ messages: [first] })).failedMessageIds).toEqual([]);
    expect((await deliver({ messages: [first, second] })).failedMessageIds).toEqual([]);
    expect(await counters(`/rest-api/banner/${banner}`)).toMatchObject({ dailyImpressions: 5, totalImpressions: 5 });
  });
});

describe('an event dated in the future', () => {
  it("counts at its message's receive time: an event of tomorrow does not switch today's daily caps off", async () => {
    await setClock(ctx.service.url, { now: TODAY });
    const banner = await freshBanner();
    await demo().post(`/rest-api/banner/${banner}/limits/update.do`, { dailyImpressionsLimit: '10' });
    await deliver([{ kind: 'impression', bannerId: banner, count: 3 }]);
    const future = (await deliver([
      { kind: 'impression', bannerId: banner, count: 2, at: '2026-11-19T10:00:00Z' },
    ])) as Answer & { futureDatedEvents: number };
    expect(future.failedMessageIds).toEqual([]);
    expect(await counters(`/rest-api/banner/${banner}`)).toMatchObject({ dailyImpressions: 5, totalImpressions: 5 });
    // today's counters keep moving, and the serving decision sees the cap reached
    await deliver([{ kind: 'impression', bannerId: banner, count: 5 }]);
    expect(await counters(`/rest-api/banner/${banner}`)).toMatchObject({ dailyImpressions: 10 });
    const status = (await (await demo().get(`/rest-api/banner/${banner}/limits/status.do`)).json()) as {
      deliverable: boolean;
      reasons: unknown[];
    };
    expect(status.deliverable).toBe(false);
    expect(status.reasons).toContainEqual(
      expect.objectContaining({ entity: `BANNER#${banner}`, field: 'dailyImpressionsLimit', counter: 10 }),
    );
    expect(future.futureDatedEvents).toBe(1);
  });

  it('within the tolerance counts at its own instant', async () => {
    await setClock(ctx.service.url, { now: '2026-11-18T23:58:00Z' });
    const banner = await freshBanner();
    const answer = (await deliver([
      { kind: 'impression', bannerId: banner, count: 4, at: '2026-11-19T00:02:00Z' },
    ])) as Answer & { futureDatedEvents: number };
    expect(answer.futureDatedEvents).toBe(0);
    await setClock(ctx.service.url, { now: '2026-11-19T00:03:00Z' });
    expect(await counters(`/rest-api/banner/${banner}`)).toMatchObject({ dailyImpressions: 4 });
  });
});

describe('an event dated outside the accepted window', () => {
  it('is dead-lettered with its reason and never counted: a year-999 event leaves the daily caps on', async () => {
    await setClock(ctx.service.url, { now: TODAY });
    const banner = await freshBanner();
    await demo().post(`/rest-api/banner/${banner}/limits/update.do`, { dailyImpressionsLimit: '100' });
    await deliver([{ kind: 'impression', bannerId: banner, count: 60 }]);
    const ancient = await deliver([{ kind: 'impression', bannerId: banner, count: 1, at: '0999-06-01T00:00:00Z' }]);
    expect(ancient).toMatchObject({ failedMessageIds: [], recordedEvents: 0 });
    expect(ancient.deadLettered).toEqual([
      { messageId: expect.any(String), reason: expect.stringContaining('outside the accepted window') },
    ]);
    for (const at of ['9999-12-31T23:59:59Z', '2026-11-04T09:59:59Z', '2026-11-19T10:00:01Z'])
      expect((await deliver([{ kind: 'impression', bannerId: banner, count: 1, at }])).deadLettered, at).toHaveLength(
        1,
      );
    for (let round = 0; round < 4; round++) await deliver([{ kind: 'impression', bannerId: banner, count: 25 }]);
    expect(await counters(`/rest-api/banner/${banner}`)).toMatchObject({
      dailyImpressions: 160,
      weeklyImpressions: 160,
      monthlyImpressions: 160,
      totalImpressions: 160,
    });
    const status = (await (await demo().get(`/rest-api/banner/${banner}/limits/status.do`)).json()) as {
      deliverable: boolean;
    };
    expect(status.deliverable).toBe(false);
    // the edges of the window are in it: 14 days before and 1 day after the sending count
    const edges = await deliver([
      { kind: 'impression', bannerId: banner, count: 1, at: '2026-11-04T10:00:00Z' },
      { kind: 'impression', bannerId: banner, count: 1, at: '2026-11-19T10:00:00Z' },
    ]);
    expect(edges).toMatchObject({ deadLettered: [], recordedEvents: 2 });
    expect(await counters(`/rest-api/banner/${banner}`)).toMatchObject({
      dailyImpressions: 161,
      totalImpressions: 162,
    });
  });
});

describe('the no-conversion state by event time', () => {
  const quietImpressions = async (banner: number) =>
    (await storedCounterItems(ctx.service)).get(`BANNER#${banner}/COUNTERS`)?.[QUIET_IMPRESSIONS_ATTRIBUTE];

  it('never counts impressions dated before the last conversion as impressions since it, in any arrival order', async () => {
    await setClock(ctx.service.url, { now: TODAY });
    const banner = await freshBanner();
    await deliver([{ kind: 'conversion', bannerId: banner, at: '2026-11-18T09:59:00Z' }]);
    const late = await deliver([{ kind: 'impression', bannerId: banner, count: 50, at: '2026-11-18T09:00:00Z' }]);
    expect(late).toMatchObject({ failedMessageIds: [], recordedEvents: 1 });
    expect(await quietImpressions(banner)).toBe(0);
    expect(await counters(`/rest-api/banner/${banner}`)).toMatchObject({ totalImpressions: 50 });
    // one batch mixing both sides of the conversion: only the later ones count
    await deliver([
      { kind: 'impression', bannerId: banner, count: 7, at: '2026-11-18T09:30:00Z' },
      { kind: 'impression', bannerId: banner, count: 3, at: '2026-11-18T09:59:30Z' },
    ]);
    expect(await quietImpressions(banner)).toBe(3);
  });

  it('keeps impressions dated after a conversion that arrives later than they do', async () => {
    await setClock(ctx.service.url, { now: TODAY });
    const banner = await freshBanner();
    await deliver([{ kind: 'impression', bannerId: banner, count: 4, at: '2026-11-18T09:30:00Z' }]);
    await deliver([{ kind: 'impression', bannerId: banner, count: 2, at: '2026-11-18T09:00:00Z' }]);
    expect(await quietImpressions(banner)).toBe(6);
    await deliver([{ kind: 'conversion', bannerId: banner, at: '2026-11-18T08:00:00Z' }]);
    expect(await quietImpressions(banner)).toBe(6);
    await deliver([{ kind: 'impression', bannerId: banner, count: 1, at: '2026-11-18T07:00:00Z' }]);
    expect(await quietImpressions(banner)).toBe(6);
  });
});

describe('a counter write the store refuses as invalid', () => {
  it('dead-letters the messages it held, with the reason and the request, and lets the group move on', async () => {
    await setClock(ctx.service.url, { now: TODAY });
    const banner = await freshBanner();
    const campaign = 800 + (banner - FIRST_BANNER);
    // DynamoDB Local itself refuses the campaign's write: it declares a name it does not use, as a defect would
    const answer = await probingRequests(
      ctx.service,
      (command, input, send) => {
        const names = input.ExpressionAttributeNames as Record<string, string> | undefined;
        if (command === 'UpdateItemCommand' && JSON.stringify(input.Key).includes(`CAMPAIGN#${campaign}`) && names)
          names['#defect'] = 'impressionsSinceConversion';
        return send();
      },
      () => deliver([{ kind: 'impression', bannerId: banner, count: 6 }]),
    );
    expect(answer.failedMessageIds).toEqual([]);
    expect(answer.deadLettered).toEqual([
      { messageId: expect.any(String), reason: expect.stringContaining('refused the counter write as invalid') },
    ]);
    const letter = ctx.service.deadLetters.messages.at(-1)!;
    expect(JSON.parse(letter.body)).toEqual({ kind: 'impression', bannerId: banner, count: 6 });
    expect(letter.details).toMatchObject({
      group: 'local',
      targets: [`CAMPAIGN#${campaign}`],
      requests: [expect.objectContaining({ UpdateExpression: expect.any(String) })],
    });
    // the banner took the message, the campaign did not; the next message of the group counts on both
    expect(await counters(`/rest-api/banner/${banner}`)).toMatchObject({ totalImpressions: 6 });
    expect((await deliver([{ kind: 'impression', bannerId: banner, count: 1 }])).failedMessageIds).toEqual([]);
    expect(await counters(`/rest-api/banner/${banner}`)).toMatchObject({ totalImpressions: 7 });
  });

  it('is counted once by a redrive once the fault is gone, on the items that refused it only; twice changes nothing', async () => {
    await setClock(ctx.service.url, { now: TODAY });
    const [faulty, clean] = [await freshBanner(), await freshBanner()];
    const campaignOf = (banner: number) => 800 + (banner - FIRST_BANNER);
    const periodCounts = async (banner: number) => {
      const item = (await storedCounterItems(ctx.service)).get(`CAMPAIGN#${campaignOf(banner)}/COUNTERS`)!;
      return Object.fromEntries(
        PERIODS.flatMap((period) => METRICS.map((metric) => counterAttribute(period, metric)))
          .filter((name) => item[name] !== undefined)
          .map((name) => [name, item[name]]),
      );
    };
    const redrive = async () => {
      const response = await postJson(`${ctx.service.url}/_local/redrive`, {});
      expect(response.status).toBe(200);
      return (await response.json()) as { replayed: string[]; deadLettered: unknown[]; failed: string[] };
    };
    await redrive(); // earlier cases' dead letters leave the list
    const refused = await probingRequests(
      ctx.service,
      (command, input, send) => {
        const names = input.ExpressionAttributeNames as Record<string, string> | undefined;
        if (command === 'UpdateItemCommand' && JSON.stringify(input.Key).includes(`CAMPAIGN#${campaignOf(faulty)}`))
          if (names) names['#defect'] = 'impressionsSinceConversion';
        return send();
      },
      () => deliver([{ kind: 'impression', bannerId: faulty, count: 6 }]),
    );
    expect(refused.deadLettered).toHaveLength(1);
    const refusedLetter = ctx.service.deadLetters.messages.at(-1)!;
    expect(refusedLetter.details?.targets).toEqual([`CAMPAIGN#${campaignOf(faulty)}`]);
    // later messages of the group move the campaign's marker past the refused one
    await deliver([{ kind: 'impression', bannerId: faulty, count: 1 }]);
    await deliver([{ kind: 'impression', bannerId: clean, count: 6 }]);
    await deliver([{ kind: 'impression', bannerId: clean, count: 1 }]);
    expect((await periodCounts(faulty))[counterAttribute('total', 'impressions')]).toBe(1);

    expect(await redrive()).toEqual({ replayed: [expect.any(String)], deadLettered: [], failed: [] });
    expect(await periodCounts(faulty)).toEqual(await periodCounts(clean));
    expect((await periodCounts(faulty))[counterAttribute('total', 'impressions')]).toBe(7);
    expect(await counters(`/rest-api/banner/${faulty}`)).toMatchObject({ totalImpressions: 7 });
    expect(ctx.service.deadLetters.messages.filter((letter) => letter.details)).toEqual([]);

    // the same dead letter replayed again (a rerun after a lost delete) is skipped where the first replay counted
    expect(await redrive()).toEqual({ replayed: [], deadLettered: [], failed: [] });
    ctx.service.deadLetters.messages.push(refusedLetter);
    expect(await redrive()).toEqual({ replayed: [refusedLetter.details!.messageId], deadLettered: [], failed: [] });
    expect((await periodCounts(faulty))[counterAttribute('total', 'impressions')]).toBe(7);
    expect(await counters(`/rest-api/banner/${faulty}`)).toMatchObject({ totalImpressions: 7 });
  });
});
