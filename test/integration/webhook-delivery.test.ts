import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookSubscription } from '../../shared/domain/webhooks/subscription';
import { clearWarmCaches } from '../../shared/support/warm-cache';
import { apiClient, importCatalog, postJson, setClock } from '../support/http';
import { useTestService } from '../support/local-service';
import { webhookContractProblems } from '../support/webhook-contract';
import { signedBy, startWebhookReceiver } from '../support/webhook-receiver';

const ctx = useTestService({ catalogFile: null });
const operator = () => apiClient(ctx.service.url, 'webhook-operator-key');
const partner = () => apiClient(ctx.service.url, 'hooked-partner-key');
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

const PARTNER = 71;
const START = '2026-11-25T10:00:00.000Z';

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  const shared = { 'Manage Capping & Limitations': 'ENABLED', 'Daily Clicks Limit': 'ENABLED' };
  await importCatalog(ctx.service.url, {
    advertisers: [{ id: 70 }, { id: 79 }],
    campaigns: [700, 701, 702, 703, 704, 705, 706, 707]
      .map((id) => ({ id, advertiserId: 70 }))
      .concat([{ id: 790, advertiserId: 79 }]),
    banners: [700, 701, 702, 703, 704, 705, 706, 707, 790].map((campaignId) => ({ id: campaignId * 10, campaignId })),
    users: [
      // the partner may see daily click caps, not total ones, and holds no share on advertiser 79
      {
        id: PARTNER,
        username: 'hooked',
        password: 'hooked-password',
        role: 'NETWORK',
        apiKeys: ['hooked-partner-key'],
        permissions: shared,
        access: [{ type: 'ADVERTISER', id: 70, level: 'UPDATE' }],
      },
      {
        id: 72,
        username: 'webhook-operator',
        password: 'operator-password',
        role: 'NETWORK',
        apiKeys: ['webhook-operator-key'],
        permissions: { ...shared, 'Total Clicks Limit': 'ENABLED' },
        access: [
          { type: 'ADVERTISER', id: 70, level: 'UPDATE' },
          { type: 'ADVERTISER', id: 79, level: 'UPDATE' },
        ],
      },
    ],
  });
});

afterAll(async () => {
  await receiver?.stop();
});

beforeEach(async () => {
  await setClock(ctx.service.url, { now: START });
});

/** Subscribes the partner through create.do, and makes the dispatcher hear of it at once. */
const subscribeThroughApi = async (path: string, events: string, campaignIds: string) => {
  const response = await partner().post('/rest-api/webhooks/create.do', {
    url: receiver.url(path),
    events,
    campaignIds,
  });
  expect(response.status).toBe(200);
  const created = (await response.json()) as { webhook: { id: string }; secret: string };
  clearWarmCaches();
  return { id: created.webhook.id, secret: created.secret };
};

/** Subscribes the partner through the store, for what the API cannot set up (a share it lacks, a failure run). */
const subscribe = async (path: string, campaignIds: number[], changes: Partial<WebhookSubscription> = {}) => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const subscription: WebhookSubscription = {
    id: `whk_${randomUUID().replaceAll('-', '')}`,
    userId: PARTNER,
    url: receiver.url(path),
    events: ['limit.reached'],
    entities: campaignIds.map((entityId) => ({ entityType: 'CAMPAIGN', entityId })),
    secrets: [{ value: secret, createdAt: START }],
    status: 'active',
    createdAt: START,
    activeSince: changes.createdAt ?? START,
    version: 0,
    ...changes,
  };
  await ctx.service.dependencies.webhooks.create(subscription);
  clearWarmCaches();
  return { ...subscription, secret };
};

const crossCap = async (campaignId: number, cap: Record<string, string>, clicks: number) => {
  expect((await operator().post(`/rest-api/campaign/${campaignId}/limits/set.do`, cap)).status).toBe(200);
  const response = await postJson(`${ctx.service.url}/_local/delivery`, [
    { kind: 'click', bannerId: campaignId * 10, count: clicks },
  ]);
  expect(response.status).toBe(200);
};

type Delivery = {
  id: string;
  subscriptionId: string;
  state: string;
  webhookId?: string;
  attempts: { status?: number; ok: boolean }[];
};
const deliveries = async (subscriptionId: string) => {
  const response = await fetch(`${ctx.service.url}/_local/webhook-deliveries`);
  expect(response.status).toBe(200);
  return ((await response.json()) as Delivery[]).filter((delivery) => delivery.subscriptionId === subscriptionId);
};

/** The time the crossing was decided, as the bus carries it: a delivery's `timestamp`. */
const crossedAt = async (id: string) => {
  const events = (await (await fetch(`${ctx.service.url}/_local/events`)).json()) as { id: string; at: string }[];
  return events.find((event) => event.id === id)!.at;
};

/** Standard Webhooks verification written from the specification's text, independent of the service's code. */

describe('webhook delivery through the local server', () => {
  it('delivers a crossing once, signed with the secret create.do answered, as status.do would name it', async () => {
    const subscription = await subscribeThroughApi('/reached', 'limit.reached', '700');
    await crossCap(700, { dailyClicksLimit: '10' }, 10);
    await deliveries(subscription.id);
    await crossCap(700, { dailyClicksLimit: '10' }, 5);
    expect((await deliveries(subscription.id)).map((delivery) => delivery.state)).toEqual(['delivered']);
    const got = receiver.at('/reached');
    expect(got).toHaveLength(1);
    expect(signedBy(subscription.secret, got[0]!)).toBe(true);
    expect(got[0]!.headers['webhook-id']).toBe('CAMPAIGN#700/dailyClicksLimit=10/D#2026-11-25');
    expect(got[0]!.headers['webhook-timestamp']).toBe(String(Date.parse(START) / 1000));
    expect(got[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(got[0]!.body)).toEqual({
      type: 'limit.reached',
      timestamp: await crossedAt('CAMPAIGN#700/dailyClicksLimit=10/D#2026-11-25'),
      data: { entity: 'CAMPAIGN#700', field: 'dailyClicksLimit', cap: 10, counter: 15 - 5 },
    });
    expect(webhookContractProblems(got[0]!)).toEqual([]);
  });

  it('tells a cap its permissions hide as hidden, and nothing of an entity it may not read', async () => {
    const subscription = await subscribe('/hidden', [701, 790]);
    await crossCap(701, { totalClicksLimit: '4' }, 4);
    await crossCap(790, { dailyClicksLimit: '3' }, 3);
    // campaign 790's crossing is not even fanned out to the partner: it holds no share on advertiser 79
    const states = (await deliveries(subscription.id)).map((delivery) => delivery.state);
    expect(states).toEqual(['delivered']);
    const got = receiver.at('/hidden');
    expect(got).toHaveLength(1);
    expect(JSON.parse(got[0]!.body)).toEqual({
      type: 'limit.reached',
      timestamp: await crossedAt('CAMPAIGN#701/totalClicksLimit=4/T'),
      data: { entity: 'CAMPAIGN#701', hidden: true },
    });
    expect(JSON.stringify(got[0]!.headers) + got[0]!.body).not.toMatch(/totalClicks|=4|CAMPAIGN#790/);
    expect(signedBy(subscription.secret, got[0]!)).toBe(true);
    expect(webhookContractProblems(got[0]!)).toEqual([]);
  });

  it('delivers a limit change, signed, as history.do shows it to the subscriber', async () => {
    const subscription = await subscribeThroughApi('/changed', 'limit.changed', '705');
    const write = await operator().post('/rest-api/campaign/705/limits/set.do', {
      dailyClicksLimit: '8',
      totalClicksLimit: '50',
    });
    expect(write.status).toBe(200);
    expect((await deliveries(subscription.id)).map((delivery) => delivery.state)).toEqual(['delivered']);
    const got = receiver.at('/changed');
    expect(got).toHaveLength(1);
    expect(signedBy(subscription.secret, got[0]!)).toBe(true);
    const history = (await (await partner().get('/rest-api/campaign/705/limits/history.do')).json()) as {
      changes: { fields?: Record<string, unknown> }[];
    };
    expect(history.changes).toHaveLength(1);
    const body = JSON.parse(got[0]!.body) as { data: { changeId: string; change: { fields: object } } };
    expect(body).toEqual({
      type: 'limit.changed',
      timestamp: START,
      data: { entity: 'CAMPAIGN#705', changeId: got[0]!.headers['webhook-id'], change: history.changes[0] },
    });
    // the partner may see daily click caps, not total ones: the change it is told of leaves the total out
    expect(Object.keys(body.data.change.fields)).toEqual(['dailyClicksLimit']);
    expect(got[0]!.body).not.toContain('totalClicks');
    expect(webhookContractProblems(got[0]!)).toEqual([]);
  });

  it('tells a subscription nothing that happened before it was created, though the stream brings it after', async () => {
    const before = await operator().post('/rest-api/campaign/706/limits/set.do', { dailyClicksLimit: '8' });
    expect(before.status).toBe(200);
    // created a minute later, before the stream's next read hands the change on (it reads once a second)
    await setClock(ctx.service.url, { advanceSeconds: 60 });
    const subscription = await subscribeThroughApi('/late', 'limit.changed', '706');
    expect(await deliveries(subscription.id)).toEqual([]);
    const after = await operator().post('/rest-api/campaign/706/limits/update.do', { dailyClicksLimit: '9' });
    expect(after.status).toBe(200);
    expect((await deliveries(subscription.id)).map((delivery) => delivery.state)).toEqual(['delivered']);
    const got = receiver.at('/late');
    expect(got.map((request) => (JSON.parse(request.body) as { timestamp: string }).timestamp)).toEqual([
      '2026-11-25T10:01:00.000Z',
    ]);
  });

  it('tells a subscription of a crossing in the second it was created, which the stream times to the second', async () => {
    const subscription = await subscribe('/same-second', [707], { createdAt: '2026-11-25T10:00:00.300Z' });
    // written 0.4 s after the subscription was created; the stream times the write 10:00:00
    await setClock(ctx.service.url, { now: '2026-11-25T10:00:00.700Z' });
    await crossCap(707, { dailyClicksLimit: '2' }, 2);
    expect(await crossedAt('CAMPAIGN#707/dailyClicksLimit=2/D#2026-11-25')).toBe('2026-11-25T10:00:00.000Z');
    expect((await deliveries(subscription.id)).map((delivery) => delivery.state)).toEqual(['delivered']);
  });

  it('retries a failed attempt after 5 seconds of the local clock, with the same webhook-id', async () => {
    const subscription = await subscribe('/flaky', [702]);
    receiver.answer('/flaky', [500]);
    await crossCap(702, { dailyClicksLimit: '2' }, 2);
    const [failed] = await deliveries(subscription.id);
    expect(failed).toMatchObject({
      state: 'pending',
      attempts: [{ ok: false, status: 500 }],
      nextAttemptAt: '2026-11-25T10:00:05.000Z',
    });
    await setClock(ctx.service.url, { advanceSeconds: 4 });
    expect(await deliveries(subscription.id)).toEqual([failed]);
    await setClock(ctx.service.url, { advanceSeconds: 1 });
    const [retried] = await deliveries(subscription.id);
    expect(retried).toMatchObject({ state: 'delivered', attempts: [{ status: 500 }, { ok: true, status: 200 }] });
    const got = receiver.at('/flaky');
    expect(got.map((request) => request.headers['webhook-id'])).toEqual([
      'CAMPAIGN#702/dailyClicksLimit=2/D#2026-11-25',
      'CAMPAIGN#702/dailyClicksLimit=2/D#2026-11-25',
    ]);
    expect(got.map((request) => request.headers['webhook-timestamp'])).toEqual([
      String(Date.parse(START) / 1000),
      String(Date.parse(START) / 1000 + 5),
    ]);
    expect(got.every((request) => signedBy(subscription.secret, request))).toBe(true);
  });

  it('dead-letters a delivery after its eighth failed attempt, and the replay delivers it with its webhook-id', async () => {
    const subscription = await subscribe('/down', [703]);
    receiver.answer(
      '/down',
      Array.from({ length: 8 }, () => 503),
    );
    await crossCap(703, { dailyClicksLimit: '1' }, 1);
    expect((await deliveries(subscription.id))[0]!.attempts).toHaveLength(1);
    for (const seconds of [5, 300, 1800, 7200, 18000, 36000, 36000]) {
      await setClock(ctx.service.url, { advanceSeconds: seconds });
      await deliveries(subscription.id);
    }
    const [dead] = await deliveries(subscription.id);
    expect(dead!.state).toBe('deadLettered');
    expect(dead!.attempts).toHaveLength(8);
    const letters = (await (await fetch(`${ctx.service.url}/_local/dead-letters`)).json()) as {
      queue: string;
      body: string;
    }[];
    expect(
      letters.filter((letter) => letter.queue === 'WebhookDeliveriesDlq' && letter.body.includes(subscription.id)),
    ).toHaveLength(1);
    const replay = await postJson(`${ctx.service.url}/_local/webhook-replay`, {});
    expect(await replay.json()).toEqual({ replayed: 1 });
    const got = receiver.at('/down');
    expect(got).toHaveLength(9);
    expect(new Set(got.map((request) => request.headers['webhook-id']))).toEqual(
      new Set(['CAMPAIGN#703/dailyClicksLimit=1/D#2026-11-25']),
    );
    expect((await deliveries(subscription.id)).map((delivery) => delivery.state)).toEqual([
      'deadLettered',
      'delivered',
    ]);
  });

  it('turns a subscription off when its run of failures has lasted 5 days, and keeps the delivery for a replay', async () => {
    const since = new Date(Date.parse(START) - 5 * 86_400_000).toISOString();
    const subscription = await subscribe('/gone', [704], { failureRun: { since, attempts: 60 } });
    receiver.answer('/gone', [410]);
    await crossCap(704, { dailyClicksLimit: '1' }, 1);
    expect((await deliveries(subscription.id)).map((delivery) => delivery.state)).toEqual(['deadLettered']);
    const [stored] = await ctx.service.dependencies.webhooks
      .listOwn(PARTNER)
      .then((all) => all.filter((one) => one.id === subscription.id));
    expect(stored).toMatchObject({ status: 'disabled', disabledReason: expect.stringContaining('5 days') });
    const letters = (await (await fetch(`${ctx.service.url}/_local/dead-letters`)).json()) as {
      reason: string;
      body: string;
    }[];
    expect(letters.filter((letter) => letter.body.includes(subscription.id))).toEqual([
      expect.objectContaining({ queue: 'WebhookDeliveriesDlq', reason: 'subscription disabled' }),
    ]);
  });
});
