import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookSubscription } from '../../shared/domain/webhooks/subscription';
import { apiClient, importCatalog, setClock } from '../support/http';
import { useTestService } from '../support/local-service';
import { signedBy, startTarpit, startWebhookReceiver } from '../support/webhook-receiver';

const ctx = useTestService({ catalogFile: null });
const operator = () => apiClient(ctx.service.url, 'isolation-operator-key');
const partner = () => apiClient(ctx.service.url, 'isolation-partner-key');
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

const PARTNER = 81;
const START = '2026-12-01T10:00:00.000Z';
const permissions = { 'Manage Capping & Limitations': 'ENABLED', 'Daily Clicks Limit': 'ENABLED' };
const partnerUser = (changes: Record<string, unknown> = {}) => ({
  id: PARTNER,
  username: 'isolated-partner',
  password: 'isolated-partner-password',
  apiKeys: ['isolation-partner-key'],
  permissions,
  access: [{ type: 'ADVERTISER', id: 80, level: 'UPDATE' }],
  ...changes,
});

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  await importCatalog(ctx.service.url, {
    advertisers: [{ id: 80 }],
    campaigns: [800, 801, 802, 803, 804, 805].map((id) => ({ id, advertiserId: 80 })),
    users: [
      partnerUser(),
      {
        id: 82,
        username: 'isolation-operator',
        password: 'isolation-operator-password',
        apiKeys: ['isolation-operator-key'],
        permissions,
        access: [{ type: 'ADVERTISER', id: 80, level: 'UPDATE' }],
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

const subscribe = async (path: string, campaignId: number) => {
  const response = await partner().post('/rest-api/webhooks/create.do', {
    url: receiver.url(path),
    events: 'limit.changed',
    campaignIds: String(campaignId),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { webhook: { id: string }; secret: string };
};

/** A change of the campaign's limits, handed to the dispatcher at once (the local stream read to its end). */
const change = async (campaignId: number, dailyClicksLimit: number) => {
  const write = await operator().post(`/rest-api/campaign/${campaignId}/limits/set.do`, {
    dailyClicksLimit: String(dailyClicksLimit),
  });
  expect(write.status).toBe(200);
  expect((await fetch(`${ctx.service.url}/_local/limit-changes`)).status).toBe(200);
};

const deliveriesOf = async (subscriptionId: string) => {
  const response = await fetch(`${ctx.service.url}/_local/webhook-deliveries`);
  const all = (await response.json()) as { subscriptionId: string; state: string; reason?: string }[];
  return all.filter((delivery) => delivery.subscriptionId === subscriptionId);
};

const within = async (ms: number, done: () => boolean): Promise<number> => {
  const started = Date.now();
  while (!done() && Date.now() - started < ms) await new Promise((resolve) => setTimeout(resolve, 20));
  return Date.now() - started;
};

describe('a subscriber is heard from the second it subscribes, at the URL it last gave', () => {
  it('hears a change one second after create.do while others are already served, and after update.do at its new URL', async () => {
    const served = await subscribe('/served', 800);
    await change(800, 10);
    expect((await deliveriesOf(served.webhook.id)).map((delivery) => delivery.state)).toEqual(['delivered']);
    const fresh = await subscribe('/fresh', 800);
    await setClock(ctx.service.url, { advanceSeconds: 1 });
    await change(800, 11);
    expect((await deliveriesOf(fresh.webhook.id)).map((delivery) => delivery.state)).toEqual(['delivered']);
    expect(receiver.at('/fresh')).toHaveLength(1);
    const moved = await partner().post(`/rest-api/webhooks/${fresh.webhook.id}/update.do`, {
      url: receiver.url('/moved'),
      events: 'limit.changed',
      campaignIds: '800',
    });
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({
      success: true,
      webhook: { id: fresh.webhook.id, url: receiver.url('/moved') },
    });
    await setClock(ctx.service.url, { advanceSeconds: 1 });
    await change(800, 12);
    await deliveriesOf(fresh.webhook.id);
    expect(receiver.at('/fresh')).toHaveLength(1);
    expect(receiver.at('/moved')).toHaveLength(1);
    // the same secret signs at the new URL: update.do changes where, not who
    expect(signedBy(fresh.secret, receiver.at('/moved')[0]!)).toBe(true);
  });
});

describe('one partner cannot hurt another', () => {
  it("delivers a healthy subscriber's event within 2 s while three subscriptions to a receiver that never answers wait", async () => {
    const tarpit = await startTarpit();
    const store = ctx.service.dependencies.webhooks;
    const make = (id: string, url: string): WebhookSubscription => ({
      id,
      userId: PARTNER,
      url,
      events: ['limit.changed'],
      entities: [{ entityType: 'CAMPAIGN', entityId: 801 }],
      secrets: [{ value: `whsec_${randomBytes(32).toString('base64')}`, createdAt: START }],
      status: 'active',
      createdAt: START,
      activeSince: START,
      version: 0,
    });
    try {
      // ids in this order: a dispatcher taking one delivery at a time would reach the healthy one last
      for (const id of ['wh_aaaaaaaaaaaaaaaaaaaa', 'wh_bbbbbbbbbbbbbbbbbbbb', 'wh_cccccccccccccccccccc'])
        await store.create(make(id, tarpit.url('/never')));
      await store.create(make('wh_zzzzzzzzzzzzzzzzzzzz', receiver.url('/healthy')));
      await change(801, 20);
      const waited = await within(10_000, () => receiver.at('/healthy').length > 0);
      expect(receiver.at('/healthy')).toHaveLength(1);
      expect(waited).toBeLessThan(2_000);
      // the three attempts to the tarpit wait at the same time, not one after another
      await within(2_000, () => tarpit.held() === 3);
      expect(tarpit.held()).toBe(3);
    } finally {
      // the connections dropped, the waiting attempts fail at once
      await tarpit.stop();
    }
  });

  it('stops delivering to a deactivated owner within the bound of its credentials, and again once it is reactivated', async () => {
    const { id } = (await subscribe('/owner', 802)).webhook;
    await change(802, 1);
    expect((await deliveriesOf(id)).map((delivery) => delivery.state)).toEqual(['delivered']);
    const { store } = ctx.service.dependencies;
    const profile = (await store.get({ PK: `USER#${PARTNER}`, SK: 'PROFILE' }))!;
    // deactivated behind the containers' back: what they remember of the owner holds for at most 60 s
    await store.put({ Item: { ...profile, active: false } });
    await setClock(ctx.service.url, { advanceSeconds: 30 });
    await change(802, 2);
    // each delivery made before the clock moves on
    await deliveriesOf(id);
    await setClock(ctx.service.url, { advanceSeconds: 31 });
    await change(802, 3);
    const states = (await deliveriesOf(id)).map(({ state, reason }) => (reason ? `${state}: ${reason}` : state));
    expect(states).toEqual(['delivered', 'delivered', 'skipped: owner inactive or deleted']);
    expect(receiver.at('/owner')).toHaveLength(2);
    // reactivated (the catalog import forgets what containers remember): heard again, the change missed meanwhile not
    await importCatalog(ctx.service.url, { users: [partnerUser()] });
    await change(802, 4);
    expect((await deliveriesOf(id)).at(-1)?.state).toBe('delivered');
    expect(receiver.at('/owner')).toHaveLength(3);
  });

  it('keeps both secrets of two rotations made at once: the next delivery is signed by each', async () => {
    const created = await subscribe('/rotated', 803);
    const rotate = () => partner().post(`/rest-api/webhooks/${created.webhook.id}/rotate-secret.do`);
    const answers = await Promise.all([rotate(), rotate()]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const secrets = await Promise.all(
      answers.map(async (answer) => ((await answer.json()) as { secret: string }).secret),
    );
    expect(new Set(secrets).size).toBe(2);
    await change(803, 7);
    await deliveriesOf(created.webhook.id);
    const [delivered] = receiver.at('/rotated');
    expect(secrets.map((secret) => signedBy(secret, delivered!))).toEqual([true, true]);
    expect(signedBy(created.secret, delivered!)).toBe(true);
  });

  it('leaves the failure run of an active subscription alone when enable.do is called on it', async () => {
    const { id } = (await subscribe('/failing', 804)).webhook;
    const { webhooks } = ctx.service.dependencies;
    await webhooks.recordAttempt((await webhooks.getOwn(PARTNER, id))!, {
      ok: false,
      at: new Date(START),
      reason: 'HTTP 503',
    });
    const failureRun = { since: START, attempts: 1 };
    const enabled = await partner().post(`/rest-api/webhooks/${id}/enable.do`);
    expect(enabled.status).toBe(200);
    expect(await enabled.json()).toMatchObject({ webhook: { id, status: 'active', failureRun } });
    const listed = (await (await partner().get('/rest-api/webhooks.do')).json()) as { webhooks: { id: string }[] };
    expect(listed.webhooks.find((webhook) => webhook.id === id)).toMatchObject({ failureRun });
    expect((await webhooks.getOwn(PARTNER, id))?.failureRun).toEqual(failureRun);
  });
});
