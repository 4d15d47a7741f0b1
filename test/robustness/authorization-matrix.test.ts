import { beforeAll, describe, expect, it } from 'vitest';
import {
  DEMAND_CAP_PERMISSIONS,
  GENERAL_PERMISSIONS,
  INVENTORY_CAP_PERMISSIONS,
  type PermissionLevel,
} from '../../shared/domain/permissions';
import { ROUTES, type Operation, type Route } from '../../shared/api/route-table';
import { apiClient, hashAuth, importCatalog, postJson } from '../support/http';
import { useTestService } from '../support/local-service';

const ctx = useTestService();

const everything = (level: PermissionLevel) => ({
  permissions: Object.fromEntries([...GENERAL_PERMISSIONS, ...DEMAND_CAP_PERMISSIONS].map((name) => [name, level])),
  inventoryPermissions: Object.fromEntries(INVENTORY_CAP_PERMISSIONS.map((name) => [name, level])),
});
const shares = [
  { type: 'ADVERTISER', id: 10, level: 'UPDATE' },
  { type: 'SITE', id: 20, level: 'UPDATE' },
];

let perActionRecordId = 0;
/** demo's subscription: every other caller's delete, rotate and enable of it answer 404, as an unknown id does. */
let demoWebhookId = '';
/** A cap value only the catalog's admin and callers who may see caps may ever be shown. */
const SECRET = '7654321';

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    users: [
      {
        id: 101,
        username: 'no-share',
        password: 'no-share-password',
        apiKeys: ['matrix-no-share-01'],
        ...everything('ENABLED'),
        access: [],
      },
      {
        id: 102,
        username: 'read-only',
        password: 'read-only-password',
        apiKeys: ['matrix-readonly-01'],
        ...everything('READONLY'),
        access: shares,
      },
      {
        id: 104,
        username: 'blind',
        password: 'blind-password',
        apiKeys: ['matrix-blind-0001'],
        // may read and act as READONLY, but sees no cap: every cap permission is DISABLED
        permissions: Object.fromEntries([
          ...GENERAL_PERMISSIONS.map((name) => [name, 'READONLY']),
          ...DEMAND_CAP_PERMISSIONS.map((name) => [name, 'DISABLED']),
        ]),
        inventoryPermissions: Object.fromEntries(INVENTORY_CAP_PERMISSIONS.map((name) => [name, 'DISABLED'])),
        access: shares,
      },
      {
        id: 103,
        username: 'disabled',
        password: 'disabled-password',
        apiKeys: ['matrix-disabled-01'],
        ...everything('DISABLED'),
        access: shares,
      },
    ],
  });
  const demo = apiClient(ctx.service.url, 'demo-key-0001');
  for (const path of [
    '/rest-api/advertiser/10',
    '/rest-api/campaign/100',
    '/rest-api/banner/1000',
    '/rest-api/site/20',
    '/rest-api/placement/200',
  ])
    expect(
      (await demo.post(`${path}/limits/set.do`, { dailyClicksLimit: '10', totalConversionsLimit: SECRET })).status,
    ).toBe(200);
  // every entity stops delivery on its daily clicks, so that status.do has reasons to tell (or hide)
  await postJson(`${ctx.service.url}/_local/delivery`, [
    { kind: 'click', bannerId: 1000, placementId: 200, count: 10 },
  ]);
  const added = (await (
    await demo.post('/rest-api/per-action/add/limit/CAMPAIGN/100.do', { actionId: '7', dailyConversionsLimit: '3' })
  ).json()) as { actionLimit: { id: number } };
  perActionRecordId = added.actionLimit.id;
  const subscribed = (await (
    await demo.post('/rest-api/webhooks/create.do', { url: 'http://127.0.0.1:9/demo', events: 'limit.reached' })
  ).json()) as { webhook: { id: string } };
  demoWebhookId = subscribed.webhook.id;
});

const ENTITY_ID: Record<string, string> = {
  advertiserId: '10',
  campaignId: '100',
  bannerId: '1000',
  siteId: '20',
  placementId: '200',
  entityId: '100',
  type: 'CAMPAIGN',
  authToken: 'f'.repeat(32),
};

/** One concrete request per route, meaningful for a caller with full rights. */
const requestOf = (route: Route): { path: string; query?: Record<string, string>; form?: Record<string, string> } => {
  const path = route.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) =>
    name === 'webhookId' ? demoWebhookId : ENTITY_ID[name]!,
  );
  const forms: Partial<Record<Operation, Record<string, string>>> = {
    'limits.set': { dailyClicksLimit: '9' },
    'limits.update': { dailyClicksLimit: '9' },
    'limits.reset': { limitCounters: 'DAILY_CLICKS' },
    'limits.resetByDelete': { limitCounters: 'DAILY_CLICKS' },
    'perAction.add': { actionId: '7', dailyConversionsLimit: '2' },
    'perAction.update': { actionId: '7', dailyConversionsLimit: '2' },
    'perAction.delete': { type: 'CAMPAIGN', entityId: '100', ids: String(perActionRecordId) },
    'auth.token': {},
    'auth.resetPassword': {},
    'webhooks.create': { url: 'http://127.0.0.1:9/matrix', events: 'limit.reached', campaignIds: '100' },
    'webhooks.update': { url: 'http://127.0.0.1:9/matrix', events: 'limit.reached', campaignIds: '100' },
  };
  const queries: Partial<Record<Operation, Record<string, string>>> = {
    'limits.bulkCampaigns': { campaignIds: '100' },
    'limits.bulkBanners': { bannerIds: '1000' },
  };
  return { path, form: forms[route.operation], query: queries[route.operation] };
};

const READS: ReadonlySet<Operation> = new Set([
  'limits.read',
  'limits.status',
  'limits.history',
  'limits.bulkCampaigns',
  'limits.bulkBanners',
  'perAction.list',
  // a filter on campaign 100 needs what a read of it needs
  'webhooks.create',
]);
/** What the public auth routes answer to these bodies, whoever calls. */
const AUTH_ANSWERS: Partial<Record<Operation, number>> = {
  'auth.token': 400,
  'auth.login': 404,
  'auth.forgot': 200,
  'auth.resetPassword': 400,
};

type Persona =
  | 'no credentials'
  | 'wrong password hash'
  | 'stale timestamp'
  | 'user without share'
  | 'READONLY'
  | 'READONLY without cap permissions'
  | 'DISABLED';
const PERSONAS: Persona[] = [
  'no credentials',
  'wrong password hash',
  'stale timestamp',
  'user without share',
  'READONLY',
  'READONLY without cap permissions',
  'DISABLED',
];

const expected = (route: Route, persona: Persona): number => {
  if (!route.authenticated) return AUTH_ANSWERS[route.operation]!;
  if (persona === 'no credentials' || persona === 'wrong password hash' || persona === 'stale timestamp') return 401;
  if (route.operation === 'webhooks.list') return 200;
  if (route.family === 'webhooks' && route.operation !== 'webhooks.create') return 404;
  if ((persona === 'READONLY' || persona === 'READONLY without cap permissions') && READS.has(route.operation))
    return 200;
  return 403;
};

const send = (route: Route, persona: Persona, attempt: number) => {
  const { path, form, query } = requestOf(route);
  const now = ctx.service.clock.now().getTime();
  const credentials: Record<string, string> =
    persona === 'wrong password hash'
      ? hashAuth('demo', 'not-the-password', now + attempt)
      : persona === 'stale timestamp'
        ? hashAuth('demo', 'demo-password', now - 6 * 60_000 - attempt)
        : {};
  const key = {
    'user without share': 'matrix-no-share-01',
    READONLY: 'matrix-readonly-01',
    DISABLED: 'matrix-disabled-01',
    'READONLY without cap permissions': 'matrix-blind-0001',
  }[persona as string];
  const search = new URLSearchParams({ ...query, ...credentials }).toString();
  const headers: Record<string, string> = key ? { 'X-Api-Key': key } : {};
  // Epom's clients send a DELETE's data as a form body too (reset.do by DELETE)
  const body = route.method === 'POST' || form ? new URLSearchParams(form ?? {}) : undefined;
  if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
  return fetch(`${ctx.service.url}${path}${search ? `?${search}` : ''}`, {
    method: route.method,
    headers,
    body,
    redirect: 'manual',
  });
};

describe('authorization matrix', () => {
  const cases = ROUTES.flatMap((route) => PERSONAS.map((persona) => [route, persona] as const));
  it(`answers each of ${cases.length} (route, caller) pairs as expected`, async () => {
    const mismatches: string[] = [];
    const leaks: string[] = [];
    let attempt = 0;
    for (const [route, persona] of cases) {
      const response = await send(route, persona, attempt++);
      const want = expected(route, persona);
      if (response.status !== want)
        mismatches.push(`${route.method} ${route.path} as ${persona}: ${response.status}, expected ${want}`);
      const text = await response.text();
      const label = `${route.method} ${route.path} as ${persona}`;
      if (response.status === 403 && route.family === 'per-action')
        expect(JSON.parse(text) as object, label).toMatchObject({ permissionDenied: true });
      // no answer, whatever its status, shows a value the caller may not see
      if (persona !== 'READONLY' && text.includes(SECRET)) leaks.push(label);
      if (route.operation === 'limits.status' && response.status === 200 && persona !== 'READONLY')
        for (const reason of (JSON.parse(text) as { reasons: object[] }).reasons)
          if (
            JSON.stringify(reason) !== JSON.stringify({ entity: (reason as { entity: string }).entity, hidden: true })
          )
            leaks.push(`${label}: ${JSON.stringify(reason)}`);
    }
    expect(mismatches).toEqual([]);
    expect(leaks).toEqual([]);
  }, 120_000);
});
