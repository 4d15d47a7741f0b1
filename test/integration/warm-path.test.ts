import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../shared/domain/auth/crypto';
import { clearWarmCaches, WARM_CACHE_TTL_MS } from '../../shared/support/warm-cache';
import { apiClient, hashAuth, importCatalog, postForm, setClock } from '../support/http';
import { probingRequests, useTestService } from '../support/local-service';

/**
 * A container remembers what it resolved (principals, grants) for at most WARM_CACHE_TTL_MS. These changes are
 * made behind the service's back, as another container or a CLI would, so only the bound makes them count.
 */
const ctx = useTestService();
const READ = '/rest-api/campaign/100/limits.do';
const read = (key: string) => fetch(`${ctx.service.url}${READ}`, { headers: { 'X-Api-Key': key } });
const advance = (ms: number) => setClock(ctx.service.url, { advanceSeconds: ms / 1000 });

const user = (id: number, key: string) => ({
  id,
  username: `warm-${id}`,
  password: `warm-${id}-password`,
  apiKeys: [key],
  permissions: { 'Manage Capping & Limitations': 'ENABLED' },
  access: [{ type: 'ADVERTISER', id: 10, level: 'UPDATE' }],
});

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    users: [user(71, 'warm-key-000071'), user(72, 'warm-key-000072'), user(73, 'warm-key-000073')],
  });
});

afterEach(async () => {
  await setClock(ctx.service.url, { now: null });
});

describe('the warm path bound', () => {
  it('a revoked API key stops working once the bound has passed', async () => {
    await setClock(ctx.service.url, { now: '2026-11-22T10:00:00Z' });
    expect((await read('warm-key-000071')).status).toBe(200);
    await ctx.service.dependencies.store.delete({
      Key: { PK: `APIKEY#${sha256Hex('warm-key-000071')}`, SK: 'APIKEY' },
    });
    await advance(WARM_CACHE_TTL_MS - 1000);
    expect((await read('warm-key-000071')).status).toBe(200);
    await advance(2000);
    expect((await read('warm-key-000071')).status).toBe(401);
  });

  it('a deactivated user stops working once the bound has passed', async () => {
    await setClock(ctx.service.url, { now: '2026-11-22T10:00:00Z' });
    expect((await read('warm-key-000072')).status).toBe(200);
    await ctx.service.dependencies.store.update({
      Key: { PK: 'USER#72', SK: 'PROFILE' },
      UpdateExpression: 'SET active = :no',
      ExpressionAttributeValues: { ':no': false },
    });
    await advance(WARM_CACHE_TTL_MS - 1000);
    expect((await read('warm-key-000072')).status).toBe(200);
    await advance(2000);
    expect((await read('warm-key-000072')).status).toBe(401);
  });

  it('a removed share stops working once the bound has passed', async () => {
    await setClock(ctx.service.url, { now: '2026-11-22T10:00:00Z' });
    expect((await read('warm-key-000073')).status).toBe(200);
    await ctx.service.dependencies.store.delete({ Key: { PK: 'USER#73', SK: 'ACCESS#ADVERTISER#10' } });
    await advance(WARM_CACHE_TTL_MS - 1000);
    expect((await read('warm-key-000073')).status).toBe(200);
    await advance(2000);
    expect((await read('warm-key-000073')).status).toBe(403);
  });

  it('never remembers a hash-authenticated write: an identical one inside the window is refused at once', async () => {
    const url = `${ctx.service.url}/rest-api/campaign/100/limits/set.do?${new URLSearchParams({
      ...hashAuth('demo', 'demo-password', ctx.service.clock.now().getTime()),
      dailyClicksLimit: '12',
    })}`;
    expect((await postForm(url, {})).status).toBe(200);
    expect((await postForm(url, {})).status).toBe(401);
  });
});

describe('refusals of a user name and secret', () => {
  /** The DynamoDB reads (their commands, in order) one refused request costs, with what is remembered now. */
  const readCommandsOf = async (send: () => Promise<Response>) => {
    const reads: string[] = [];
    const response = await probingRequests(
      ctx.service,
      (command, _input, next) => {
        if (/^(Get|BatchGet|Query)/.test(command)) reads.push(command);
        return next();
      },
      send,
    );
    expect(response.status).toBe(401);
    return reads;
  };

  /** The DynamoDB reads one refused request costs, with nothing remembered. */
  const readsOf = async (send: () => Promise<Response>) => {
    clearWarmCaches();
    return (await readCommandsOf(send)).length;
  };

  const hashRead =
    (username: string, password = 'not-the-password') =>
    () =>
      fetch(
        `${ctx.service.url}${READ}?${new URLSearchParams(hashAuth(username, password, ctx.service.clock.now().getTime()))}`,
      );

  it('cost the same reads whether or not the user name exists: Epom hash', async () => {
    const known = await readsOf(hashRead('warm-71'));
    expect(known).toBeGreaterThan(0);
    expect(await readsOf(hashRead('nobody-by-this-name'))).toBe(known);
  });

  it('cost the same reads attempt after attempt, even for a name whose hash was proven a moment before', async () => {
    const attempts = async (username: string) => {
      const reads: string[][] = [];
      for (let attempt = 0; attempt < 4; attempt++) reads.push(await readCommandsOf(hashRead(username)));
      return reads;
    };
    clearWarmCaches();
    const unknown = await attempts('nobody-by-this-name');
    expect(unknown[0]!.length).toBeGreaterThan(0);
    expect(new Set(unknown.map((reads) => reads.join()))).toEqual(new Set([unknown[0]!.join()]));
    expect(await attempts('warm-71')).toEqual(unknown);
    // the container remembers what a right hash proved, and only that
    expect((await hashRead('warm-71', 'warm-71-password')()).status).toBe(200);
    expect(await attempts('warm-71')).toEqual(unknown);
  });

  it('cost the same reads whether or not the user name exists: token.do', async () => {
    const token = (username: string) => () =>
      postForm(`${ctx.service.url}/rest-api/auth/token.do`, { username, password: 'not-the-password' });
    const known = await readsOf(token('warm-71'));
    expect(known).toBeGreaterThan(0);
    expect(await readsOf(token('nobody-by-this-name'))).toBe(known);
  });
});

describe('what a limit operation reads', () => {
  /** The sort keys of the items `send` asked DynamoDB for by key. */
  const keysReadBy = async (send: () => Promise<Response>) => {
    const sortKeys: string[] = [];
    const response = await probingRequests(
      ctx.service,
      (_command, input, next) => {
        const { RequestItems = {}, Key } = input as {
          RequestItems?: Record<string, { Keys?: { SK: { S: string } }[] }>;
          Key?: { SK: { S: string } };
        };
        for (const { Keys = [] } of Object.values(RequestItems)) sortKeys.push(...Keys.map((key) => key.SK.S));
        if (Key) sortKeys.push(Key.SK.S);
        return next();
      },
      send,
    );
    expect(response.status).toBe(200);
    return sortKeys;
  };

  it('reads a counter item only where the answer shows it, and once', async () => {
    const demo = apiClient(ctx.service.url, 'demo-key-0001');
    const path = '/rest-api/campaign/100/limits';
    expect((await demo.post(`${path}/set.do`, { dailyClicksLimit: '99' })).status).toBe(200);
    expect(await keysReadBy(() => demo.get(`${path}.do`))).toContain('COUNTERS');
    const reset = await keysReadBy(() => demo.post(`${path}/reset.do`, { limitCounters: 'DAILY_CLICKS' }));
    expect(reset).toContain('LIMIT');
    expect(reset).not.toContain('COUNTERS');
    // the history is a query of its own: the target's checks need the entity alone
    expect(await keysReadBy(() => demo.get(`${path}/history.do`))).toEqual(['ENTITY']);
    // the serving status reads each item of the chain (campaign, advertiser) once, the campaign's entity first
    const status = await keysReadBy(() => demo.get(`${path}/status.do`));
    for (const sortKey of ['ENTITY', 'LIMIT', 'COUNTERS'])
      expect(
        status.filter((key) => key === sortKey),
        sortKey,
      ).toHaveLength(2);
  });
});
