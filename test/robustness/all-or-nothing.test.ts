import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWriteRoute, ROUTES, type Operation, type Route } from '../../shared/api/route-table';
import type { Item } from '../../shared/adapters/dynamodb/table-store';
import { levelNamed, type EntityType } from '../../shared/domain/levels';
import { entityPK, webhooksPK } from '../../shared/table/keys';
import type { WebhookSubscription } from '../../shared/domain/webhooks/subscription';
import { apiClient, postJson, setClock } from '../support/http';
import { useTestService } from '../support/local-service';
import type { FlushResult } from '../../shared/resets/flush';
import { counterAttribute, keyAttribute } from '../../shared/adapters/dynamodb/counter-attributes';

/**
 * Every write route of the route table, with a fault injected at each of its write requests in turn: the answer
 * is an error and the entity's state is wholly the old one; sent again without the fault, the state is wholly the
 * new one, exactly as a run without faults leaves it.
 */
const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');
const WRITE_ROUTES = ROUTES.filter(isWriteRoute);

const ENTITY_OF_LEVEL: Record<string, number> = {
  advertiser: 11,
  campaign: 101,
  banner: 1003,
  site: 21,
  placement: 202,
};
const PER_ACTION = { type: 'CAMPAIGN' as EntityType, id: 102 };

/** The webhook routes write the demo user's subscriptions: one, disabled, stands before each attempt. */
const WEBHOOK: WebhookSubscription = {
  id: 'wh_aaaaaaaaaaaaaaaaaaaa',
  userId: 1,
  url: 'http://127.0.0.1:4000/hooks',
  events: ['limit.reached'],
  entities: [],
  secrets: [{ value: `whsec_${Buffer.alloc(32, 7).toString('base64')}`, createdAt: '2026-06-01T00:00:00.000Z' }],
  status: 'disabled',
  disabledReason: 'every delivery failed for 5 days',
  failureRun: { since: '2026-06-01T00:00:00.000Z', attempts: 8 },
  createdAt: '2026-06-01T00:00:00.000Z',
  activeSince: '2026-06-01T00:00:00.000Z',
  version: 0,
};
const isWebhookRoute = (route: Route) => route.family === 'webhooks';

beforeAll(async () => {
  await setClock(ctx.service.url, { now: '2026-06-10T12:00:00Z' });
});
afterAll(async () => {
  await setClock(ctx.service.url, { now: null });
});

const targetOf = (route: Route): { type: EntityType; id: number } =>
  route.level
    ? { type: levelNamed(route.level).entityType, id: ENTITY_OF_LEVEL[route.level]! }
    : { type: PER_ACTION.type, id: PER_ACTION.id };

/**
 * The state every attempt starts from, written straight to the table: a record, counters, per-action limits and
 * their counters, the switch; no marker of an applied reset (each attempt queues the same reset again).
 */
const arrange = async ({ type, id }: { type: EntityType; id: number }, switchedOn: boolean) => {
  const { store } = ctx.service.dependencies;
  const PK = entityPK(type, id);
  for (const item of await store.queryPartition(PK, 'RESET_APPLIED#')) await store.delete({ Key: { PK, SK: item.SK } });
  const items: Item[] = [
    {
      PK,
      SK: 'LIMIT',
      id: 900,
      entityType: type,
      entityId: id,
      caps: { dailyClicksLimit: 40 },
      evenPacing: false,
      useLocalTime: false,
      timezoneOffset: 0,
      version: 3,
    },
    {
      PK,
      SK: 'COUNTERS',
      [keyAttribute('daily')]: '2026-06-10',
      [counterAttribute('daily', 'clicks')]: 7,
      [counterAttribute('total', 'clicks')]: 9,
    },
    { PK, SK: 'ACTION_SWITCH', enabled: switchedOn },
    ...[7, 8].flatMap((actionId) => [
      {
        PK,
        SK: `ACTION#${actionId}`,
        id: 800 + actionId,
        entityType: type,
        entityId: id,
        actionId,
        dailyConversionsLimit: 2,
        totalConversionsLimit: 5,
        version: 1,
      },
      {
        PK,
        SK: `ACTCTR#${actionId}`,
        [keyAttribute('daily')]: '2026-06-10',
        [counterAttribute('daily', 'conversions')]: 1,
        [counterAttribute('total', 'conversions')]: 3,
      },
    ]),
  ];
  await Promise.all(items.map((item) => store.put({ Item: item })));
  // an action whose limit the add route creates has no record
  await store.delete({ Key: { PK, SK: 'ACTION#9' } });
};

/** The demo user's subscriptions: the one above, alone. */
const arrangeWebhooks = async () => {
  const { store, webhooks } = ctx.service.dependencies;
  const partition = webhooksPK(WEBHOOK.userId);
  for (const item of await store.queryPartition(partition)) await store.delete({ Key: { PK: partition, SK: item.SK } });
  await webhooks.create(WEBHOOK);
};

/**
 * The subscriptions partition as stored, with what each run makes afresh named by kind: a new subscription's id and
 * a new secret (the clock is fixed, so every time is the same in every run).
 */
const webhookState = async () => {
  const items = await ctx.service.dependencies.store.queryPartition(webhooksPK(WEBHOOK.userId));
  const records = JSON.parse(
    JSON.stringify(items)
      .replace(/wh_[a-z2-7]{20}/g, (id) => (id === WEBHOOK.id ? id : 'wh_NEW'))
      .replace(/whsec_[A-Za-z0-9+/=]+/g, (secret) => (secret === WEBHOOK.secrets[0]!.value ? secret : 'whsec_NEW')),
  ) as Item[];
  // a new id sorts anywhere among the keys: compare in an order of their own, by key once the ids are named by kind
  records.sort((a, b) => `${a.PK} ${a.SK}`.localeCompare(`${b.PK} ${b.SK}`));
  return { records, history: [] as Item[], items };
};

/** The request each write route is tested with; reset routes are applied by the flush that follows them. */
const REQUESTS: Partial<Record<Operation, (route: Route) => Promise<Response>>> = {
  'limits.set': (route) => demo().post(pathOf(route), { dailyClicksLimit: '30', totalClicksLimit: '90' }),
  'limits.update': (route) => demo().post(pathOf(route), { dailyClicksLimit: '20' }),
  'limits.reset': (route) => demo().post(pathOf(route), { limitCounters: 'ALL' }),
  'limits.resetByDelete': (route) => demo().delete(`${pathOf(route)}?limitCounters=ALL`),
  'limits.delete': (route) => demo().delete(pathOf(route)),
  'perAction.add': (route) => demo().post(pathOf(route), { actionId: '9', dailyConversionsLimit: '4' }),
  'perAction.update': (route) => demo().post(pathOf(route), { actionId: '7', totalConversionsLimit: '6' }),
  'perAction.delete': (route) =>
    demo().post(pathOf(route), { type: PER_ACTION.type, entityId: String(PER_ACTION.id), ids: '807,808' }),
  'perAction.enable': (route) => demo().post(pathOf(route)),
  'perAction.disable': (route) => demo().post(pathOf(route)),
  'webhooks.create': (route) =>
    demo().post(route.path, { url: 'http://127.0.0.1:4001/hooks', events: 'limit.reached,limit.changed' }),
  'webhooks.update': (route) =>
    demo().post(pathOf(route), { url: 'http://127.0.0.1:4001/hooks/v2', events: 'limit.changed', campaignIds: '101' }),
  'webhooks.delete': (route) => demo().delete(pathOf(route)),
  'webhooks.rotateSecret': (route) => demo().post(pathOf(route)),
  'webhooks.enable': (route) => demo().post(pathOf(route)),
};

const pathOf = (route: Route): string => {
  if (isWebhookRoute(route)) return route.path.replace('{webhookId}', WEBHOOK.id);
  const { type, id } = targetOf(route);
  return route.path.replace(/\{type\}/, type).replace(/\{[A-Za-z]+\}/, String(id));
};

const RESET_APPLIED = 'RESET_APPLIED#';

/**
 * The entity's partition: every item as stored, and, for comparing with a run without faults, the records with
 * their issued ids left out (a reset's applied marker is named by the id its queued request was given), and the
 * history entries' content in key order without keys and expiry.
 */
const stateOf = async ({ type, id }: { type: EntityType; id: number }) => {
  const items = await ctx.service.dependencies.store.queryPartition(entityPK(type, id));
  const records = items
    .filter((item) => !String(item.SK).startsWith('HISTORY'))
    .map((item) => Object.fromEntries(Object.entries(item).filter(([name]) => name !== 'id')))
    .map((item) => (String(item.SK).startsWith(RESET_APPLIED) ? { ...item, SK: RESET_APPLIED } : item));
  const history = items
    .filter((item) => String(item.SK).startsWith('HISTORY#'))
    .map((item) =>
      Object.fromEntries(Object.entries(item).filter(([name]) => !['PK', 'SK', 'version', 'expiresAt'].includes(name))),
    );
  return { records, history, items };
};

const faults = async (failWrites: number[]) => postJson(`${ctx.service.url}/_local/faults`, { failWrites });
const writesSeen = async () =>
  ((await (await fetch(`${ctx.service.url}/_local/faults`)).json()) as { writesSeen: number }).writesSeen;
const isReset = (route: Route) => route.operation === 'limits.reset' || route.operation === 'limits.resetByDelete';

/** The write itself: the request, or for a reset the hourly flush that applies it. Answers whether it succeeded. */
const write = async (route: Route): Promise<boolean> => {
  if (!isReset(route)) return (await REQUESTS[route.operation]!(route)).status === 200;
  const result = (await (await postJson(`${ctx.service.url}/_local/flush`, {})).json()) as FlushResult;
  return result.failed === 0 && result.applied === 1;
};

/** A reset is queued first (the queue is not DynamoDB); the faults meet its flush. */
const attempt = async (route: Route, failWrites: number[]) => {
  if (isReset(route)) expect((await REQUESTS[route.operation]!(route)).status).toBe(200);
  await faults(failWrites);
  const succeeded = await write(route);
  const writes = await writesSeen();
  await faults([]);
  return { succeeded, writes };
};

describe('every write route, a fault at every write request', () => {
  it('covers every write route of the route table', () => {
    expect(WRITE_ROUTES.map((route) => route.operation)).toEqual(
      expect.arrayContaining(['limits.delete', 'perAction.delete', 'perAction.disable', 'limits.set']),
    );
    for (const route of WRITE_ROUTES) expect(REQUESTS, route.path).toHaveProperty(route.operation);
  });

  it.each(WRITE_ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: wholly the old state, or wholly the new',
    async (_name, route) => {
      const target = targetOf(route);
      const switchedOn = route.operation !== 'perAction.enable';
      const arranged = () => (isWebhookRoute(route) ? arrangeWebhooks() : arrange(target, switchedOn));
      const state = () => (isWebhookRoute(route) ? webhookState() : stateOf(target));
      // a run without faults: how many write requests it makes, and the new state it leaves
      await arranged();
      const clean = await attempt(route, [1_000_000]);
      expect(clean.succeeded).toBe(true);
      const { records: newRecords, history: newHistory } = await state();
      expect(clean.writes, 'the operation writes').toBeGreaterThan(0);
      for (let failing = 1; failing <= clean.writes; failing++) {
        const label = `write ${failing} of ${clean.writes}`;
        await arranged();
        const old = await state();
        expect((await attempt(route, [failing])).succeeded, label).toBe(false);
        expect((await state()).items, label).toEqual(old.items);
        // sent again (a reset: flushed again), the change lands whole, exactly as without the fault
        expect(await write(route), `${label}, retried`).toBe(true);
        const after = await state();
        expect(after.records, `${label}, retried`).toEqual(newRecords);
        expect(after.history.slice(old.history.length), `${label}, retried`).toEqual(newHistory.slice(-1));
      }
    },
  );
});
