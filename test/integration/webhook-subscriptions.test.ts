import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, bodyWithoutRequestId, hashAuth, importCatalog, postForm } from '../support/http';
import { scanTable, useTestService } from '../support/local-service';

const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');
const alice = () => apiClient(ctx.service.url, 'alice-key-0001');
const unpermitted = () => apiClient(ctx.service.url, 'no-permission-key1');

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const ID = /^wh_[a-z2-7]{20}$/;
const RECEIVER = 'http://127.0.0.1:9/hooks';
const UNKNOWN_ID = 'wh_aaaaaaaaaaaaaaaaaaaa';

type Answer = { status: number; body: Record<string, unknown>; text: string };
const answer = async (response: Response): Promise<Answer> => {
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown>, text };
};
/** Status and body less its request id: two answers the caller cannot tell apart compare equal. */
const comparable = async (response: Response) => {
  const text = await response.text();
  return { status: response.status, body: bodyWithoutRequestId(text) };
};

const create = async (fields: Record<string, string | string[]>, client = demo()) =>
  answer(await client.post('/rest-api/webhooks/create.do', fields));
const list = async (client = demo()) => answer(await client.get('/rest-api/webhooks.do'));
const webhookOf = (created: Answer) => created.body.webhook as Record<string, unknown> & { id: string };

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    users: [
      {
        id: 90,
        username: 'no-permission',
        password: 'no-permission-pw',
        apiKeys: ['no-permission-key1'],
        permissions: {},
        access: [{ type: 'ADVERTISER', id: 10, level: 'UPDATE' }],
      },
    ],
  });
});

describe('creating and listing webhook subscriptions', () => {
  it('creates one, showing its secret in that answer only, and lists it without any secret', async () => {
    const created = await create({ url: RECEIVER, events: 'limit.reached', campaignIds: '100' });
    expect(created.status).toBe(200);
    expect(created.body.secret).toMatch(SECRET);
    const webhook = webhookOf(created);
    expect(webhook).toEqual({
      id: expect.stringMatching(ID),
      url: RECEIVER,
      events: ['limit.reached'],
      filters: { campaignIds: [100] },
      status: 'active',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      activeSince: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const listed = await list();
    expect(listed.status).toBe(200);
    expect(listed.body.webhooks).toContainEqual(webhook);
    expect(listed.text).not.toContain(String(created.body.secret));
    expect(listed.text).not.toContain('whsec_');
  });

  it('reads the events comma-separated, repeated and bracketed, and every filter level by its ids parameter', async () => {
    const fields = { url: RECEIVER, advertiserIds: '10', bannerIds: '1000,1001', siteIds: '20', placementIds: '200' };
    const comma = webhookOf(await create({ ...fields, events: 'limit.changed,limit.reached' }));
    const repeated = webhookOf(await create({ ...fields, events: ['limit.reached', 'limit.changed'] }));
    const bracketed = webhookOf(await create({ ...fields, 'events[]': ['limit.changed', 'limit.changed'] }));
    expect(comma.events).toEqual(['limit.reached', 'limit.changed']);
    expect(repeated.events).toEqual(['limit.reached', 'limit.changed']);
    expect(bracketed.events).toEqual(['limit.changed']);
    expect(comma.filters).toEqual({
      advertiserIds: [10],
      bannerIds: [1000, 1001],
      siteIds: [20],
      placementIds: [200],
    });
    for (const webhook of [comma, repeated, bracketed])
      expect((await demo().delete(`/rest-api/webhooks/${webhook.id}.do`)).status).toBe(200);
  });

  it("lists only the caller's own, newest first", async () => {
    const first = webhookOf(await create({ url: RECEIVER, events: 'limit.reached' }, alice()));
    const second = webhookOf(await create({ url: `${RECEIVER}/2`, events: 'limit.changed' }, alice()));
    const own = (await list(alice())).body.webhooks as { id: string }[];
    expect(own.map((webhook) => webhook.id)).toEqual([second.id, first.id]);
    const demos = (await list()).body.webhooks as { id: string }[];
    expect(demos.map((webhook) => webhook.id)).not.toContain(first.id);
  });

  it('dryRun=true checks everything, answers without a secret and creates nothing', async () => {
    const before = await scanTable(ctx.service);
    const dry = await create({ url: RECEIVER, events: 'limit.reached', dryRun: 'true' });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ success: true, dryRun: true, webhook: { url: RECEIVER } });
    expect(dry.body.secret).toBeUndefined();
    expect(await scanTable(ctx.service)).toEqual(before);
  });
});

describe('what create.do refuses, with a 400 naming each parameter and nothing written', () => {
  type Refusal = [string, Record<string, string | string[]>, Record<string, string>];
  const refusals: Refusal[] = [
    ['no URL', { events: 'limit.reached' }, { url: 'is required' }],
    ['a URL that is not one', { url: 'not a url', events: 'limit.reached' }, { url: 'must be an absolute https URL' }],
    ['ftp', { url: 'ftp://partner.example/x', events: 'limit.reached' }, { url: 'must be an absolute https URL' }],
    [
      'plain http to another host',
      { url: 'http://partner.example/x', events: 'limit.reached' },
      { url: 'must be https (plain http only to localhost, 127.0.0.1 or [::1])' },
    ],
    [
      'credentials in the URL',
      { url: 'https://user:pw@partner.example/x', events: 'limit.reached' },
      { url: 'must not hold a user name or password' },
    ],
    ...[
      ['a private address', 'https://10.0.0.1/x'],
      ['a shared address (100.64.0.0/10)', 'https://100.64.0.1/x'],
      ['a multicast address', 'https://224.0.0.1/x'],
      ['a reserved address (240.0.0.0/4)', 'https://240.0.0.1/x'],
      ['the broadcast address', 'https://255.255.255.255/x'],
      ['an IPv4-compatible IPv6 address of 127.0.0.1', 'https://[::7f00:1]/x'],
      ['an IPv4-translated IPv6 address of 127.0.0.1', 'https://[::ffff:0:7f00:1]/x'],
      ['a 6to4 address (2002::/16)', 'https://[2002:7f00:1::1]/x'],
      ['a NAT64 address (64:ff9b::/96)', 'https://[64:ff9b::7f00:1]/x'],
      ['a local-use NAT64 address (64:ff9b:1::/48)', 'https://[64:ff9b:1::a00:1]/x'],
    ].map(([what, url]): Refusal => [
      what!,
      { url: url!, events: 'limit.reached' },
      { url: 'must name a public host, not a loopback, private, link-local or other special-purpose address' },
    ]),
    [
      'a URL of 2,042 characters as typed, 12,142 as called (1,010 emoji, each percent-encoded to 12)',
      { url: `https://hooks.example/${'😀'.repeat(1010)}`, events: 'limit.reached' },
      { url: 'must be at most 2048 characters, as sent and once percent-encoded' },
    ],
    [
      'an unknown event kind',
      { url: RECEIVER, events: 'limit.reached,limit.crossed' },
      { events: 'unknown event kind limit.crossed: use limit.reached, limit.changed' },
    ],
    ['no event kind', { url: RECEIVER }, { events: 'is required: one or more of limit.reached, limit.changed' }],
    [
      'a non-numeric id',
      { url: RECEIVER, events: 'limit.reached', campaignIds: '100,abc' },
      { campaignIds: 'abc is not an id: each must be a positive integer' },
    ],
    [
      'every fault at once',
      { url: 'ftp://x', events: 'nothing', siteIds: '0' },
      {
        url: 'must be an absolute https URL',
        events: 'unknown event kind nothing: use limit.reached, limit.changed',
        siteIds: '0 is not an id: each must be a positive integer',
      },
    ],
  ];

  it.each(refusals)('%s', async (_, fields, errors) => {
    const before = await scanTable(ctx.service);
    const refused = await create(fields);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, code: 'INVALID_PARAMETER', errors });
    expect(Object.keys(refused.body.errors as object).sort()).toEqual(Object.keys(errors).sort());
    expect(await scanTable(ctx.service)).toEqual(before);
  });

  it('refuses more than 100 filter entities', async () => {
    const ids = Array.from({ length: 101 }, (_, index) => String(index + 1));
    const refused = await create({ url: RECEIVER, events: 'limit.reached', campaignIds: ids.join(',') });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors as object)).toEqual(['campaignIds']);
  });

  it('refuses an eleventh subscription, naming the URL', async () => {
    const user = apiClient(ctx.service.url, 'publisher-key-0001');
    for (let index = 0; index < 10; index++)
      expect((await create({ url: `${RECEIVER}/${index}`, events: 'limit.reached' }, user)).status).toBe(200);
    const before = await scanTable(ctx.service);
    const refused = await create({ url: `${RECEIVER}/10`, events: 'limit.reached' }, user);
    expect(refused).toMatchObject({
      status: 400,
      body: { code: 'INVALID_PARAMETER', errors: { url: 'at most 10 subscriptions per user: delete one first' } },
    });
    expect(await scanTable(ctx.service)).toEqual(before);
    expect((await create({ url: RECEIVER, events: 'limit.reached', dryRun: 'true' }, user)).status).toBe(400);
  });
});

describe('a filter tells no more than a read would', () => {
  const cases: [string, () => ReturnType<typeof apiClient>, string, string][] = [
    ['an unknown campaign', alice, 'campaignIds', '/rest-api/campaign/999/limits.do'],
    ["another advertiser's campaign", alice, 'campaignIds', '/rest-api/campaign/102/limits.do'],
    ['a site without a share', alice, 'siteIds', '/rest-api/site/20/limits.do'],
    ['a campaign without the permission', unpermitted, 'campaignIds', '/rest-api/campaign/100/limits.do'],
  ];

  it.each(cases)('%s answers as its read does', async (_, client, parameter, readPath) => {
    const id = /\/(\d+)\/limits\.do$/.exec(readPath)![1]!;
    const read = await comparable(await client().get(readPath));
    expect(read.status).toBeGreaterThanOrEqual(403);
    const refused = await comparable(
      await client().post('/rest-api/webhooks/create.do', { url: RECEIVER, events: 'limit.reached', [parameter]: id }),
    );
    expect(refused).toEqual(read);
  });
});

describe("managing one's own subscriptions", () => {
  it("answers another user's id exactly as an unknown one, on every route, changing nothing", async () => {
    const owned = webhookOf(await create({ url: RECEIVER, events: 'limit.reached' }));
    for (const [method, tail] of [
      ['DELETE', '.do'],
      ['POST', '/rotate-secret.do'],
      ['POST', '/enable.do'],
    ] as const) {
      const send = (id: string) =>
        method === 'DELETE'
          ? alice().delete(`/rest-api/webhooks/${id}${tail}`)
          : alice().post(`/rest-api/webhooks/${id}${tail}`);
      const theirs = await comparable(await send(owned.id));
      const unknown = await comparable(await send(UNKNOWN_ID));
      expect(theirs.status).toBe(404);
      expect(JSON.stringify(theirs).replace(owned.id, UNKNOWN_ID)).toEqual(JSON.stringify(unknown));
    }
    expect((await list()).body.webhooks).toContainEqual(owned);
  });

  it('refuses a malformed id with a 400 naming webhookId', async () => {
    const refused = await answer(await demo().delete('/rest-api/webhooks/12345.do'));
    expect(refused).toMatchObject({ status: 400, body: { errors: { webhookId: expect.any(String) } } });
  });

  it('deletes a subscription: gone from the listing, and a second delete is a 404', async () => {
    const webhook = webhookOf(await create({ url: RECEIVER, events: 'limit.reached' }));
    const deleted = await answer(await demo().delete(`/rest-api/webhooks/${webhook.id}.do`));
    expect(deleted).toMatchObject({ status: 200, body: { success: true, id: webhook.id } });
    expect(((await list()).body.webhooks as { id: string }[]).map((each) => each.id)).not.toContain(webhook.id);
    expect((await demo().delete(`/rest-api/webhooks/${webhook.id}.do`)).status).toBe(404);
  });

  it('rotates the secret: a new one shown once, the old one signing for 24 hours more', async () => {
    const created = await create({ url: RECEIVER, events: 'limit.reached' });
    const { id } = webhookOf(created);
    ctx.service.clock.set(new Date('2026-06-10T12:00:00.000Z'));
    try {
      const rotated = await answer(await demo().post(`/rest-api/webhooks/${id}/rotate-secret.do`));
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).toMatch(SECRET);
      expect(rotated.body.secret).not.toEqual(created.body.secret);
      expect(rotated.body.previousSecretExpiresAt).toBe('2026-06-11T12:00:00.000Z');
      const stored = await ctx.service.dependencies.webhooks.getOwn(1, id);
      expect(stored?.secrets).toEqual([
        { value: rotated.body.secret, createdAt: '2026-06-10T12:00:00.000Z' },
        { value: created.body.secret, createdAt: expect.any(String), expiresAt: '2026-06-11T12:00:00.000Z' },
      ]);
      expect((await list()).text).not.toContain(String(rotated.body.secret));
    } finally {
      ctx.service.clock.set(null);
    }
  });

  it('enables a subscription switched off after failures, clearing its failure run', async () => {
    const { id } = webhookOf(await create({ url: RECEIVER, events: 'limit.reached' }));
    const { webhooks } = ctx.service.dependencies;
    const created = (await webhooks.getOwn(1, id))!;
    await webhooks.recordAttempt(created, { ok: false, at: new Date('2026-06-10T12:00:00Z'), reason: 'HTTP 503' });
    await webhooks.disable(1, id, 'every delivery failed for 5 days (HTTP 503)');
    const off = ((await list()).body.webhooks as { id: string }[]).find((each) => each.id === id);
    expect(off).toMatchObject({
      status: 'disabled',
      disabledReason: 'every delivery failed for 5 days (HTTP 503)',
      failureRun: { since: '2026-06-10T12:00:00.000Z', attempts: 1 },
    });
    const enabled = await answer(await demo().post(`/rest-api/webhooks/${id}/enable.do`));
    expect(enabled.status).toBe(200);
    const on = ((await list()).body.webhooks as { id: string }[]).find((each) => each.id === id);
    expect(on).toEqual(enabled.body.webhook);
    expect(on).toMatchObject({ status: 'active' });
    expect(on).not.toHaveProperty('failureRun');
    expect(on).not.toHaveProperty('disabledReason');
  });
});

describe('the guards of every write', () => {
  it('refuses a hash-signed create replayed under the same timestamp', async () => {
    const signed = hashAuth('demo', 'demo-password', ctx.service.clock.now().getTime());
    const fields = { ...signed, url: `${RECEIVER}/signed`, events: 'limit.reached' };
    const url = `${ctx.service.url}/rest-api/webhooks/create.do`;
    expect((await postForm(url, fields)).status).toBe(200);
    expect(await answer(await postForm(url, fields))).toMatchObject({
      status: 401,
      body: { code: 'REQUEST_REPLAYED' },
    });
  });

  it('answers a create retried with its Idempotency-Key as the first time, creating one subscription', async () => {
    const send = () =>
      postForm(
        `${ctx.service.url}/rest-api/webhooks/create.do`,
        { url: `${RECEIVER}/idempotent`, events: 'limit.changed' },
        { 'X-Api-Key': 'alice-key-0001', 'Idempotency-Key': 'create-webhook-1' },
      );
    const first = await answer(await send());
    const again = await answer(await send());
    expect(first.status).toBe(200);
    expect(bodyWithoutRequestId(again.text)).toEqual(bodyWithoutRequestId(first.text));
    const own = (await list(alice())).body.webhooks as { url: string }[];
    expect(own.filter((each) => each.url === `${RECEIVER}/idempotent`)).toHaveLength(1);
  });
});
