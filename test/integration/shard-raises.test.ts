import { beforeAll, describe, expect, inject, it } from 'vitest';
import { shardOfGroup } from '../../shared/domain/delivery/counter-shards';
import { counterAttribute } from '../../shared/adapters/dynamodb/counter-attributes';
import { apiClient, importCatalog, postJson, setClock } from '../support/http';
import { probingRequests, useTestService } from '../support/local-service';
import { runToolInProcess } from '../support/tool-run';

/**
 * Raising a shard count mid-stream through the local server: every batch delivered twice, one delivery racing the
 * raise with the count it read before it, and the counts stay exact. The truth is summed here from what was sent.
 */
// the key a tool's client gives DynamoDB Local (`DYNAMODB_ENDPOINT`): `npm run shards` below writes to this table
const ctx = useTestService({ catalogFile: null, dynamoAccessKeyId: 'local' });
const caller = () => apiClient(ctx.service.url, 'raises-key-0001');

type Delivered = { duplicateMessages: number; failedMessageIds: string[]; deadLettered: unknown[] };
type Message = { id: string; group: string; clicks: number };

const ADVERTISER = 'ADVERTISER#80';
const GROUPS = Array.from({ length: 12 }, (_, index) => `raise-group-${index}`);
const TOTAL_CLICKS = counterAttribute('total', 'clicks');

const deliver = async (messages: readonly Message[]) => {
  const response = await postJson(`${ctx.service.url}/_local/delivery`, {
    messages: messages.map(({ id, group, clicks }) => ({
      messageId: id,
      group,
      body: { kind: 'click', bannerId: 8000, count: clicks },
    })),
  });
  expect(response.status).toBe(200);
  const answer = (await response.json()) as Delivered;
  expect(answer.failedMessageIds).toEqual([]);
  expect(answer.deadLettered).toEqual([]);
  return answer;
};
const shard = async (shards: number) =>
  postJson(`${ctx.service.url}/_local/shards`, { type: 'advertiser', id: 80, shards });
const totalClicks = async () =>
  ((await (await caller().get('/rest-api/advertiser/80/limits.do')).json()) as { totalClicks: number }).totalClicks;
const counterItems = () => ctx.service.dependencies.store.queryPartition(ADVERTISER, 'COUNTERS');

let sent = 0;
let batches = 0;
/** One message per group, each of a different number of clicks, added to what the counters must come to. */
const nextBatch = (): Message[] => {
  batches++;
  return GROUPS.map((group, index) => {
    const clicks = batches * 100 + index + 1;
    sent += clicks;
    return { id: `raise-${batches}-${index}`, group, clicks };
  });
};
/** A batch, then the same batch delivered again: every message of the second is a duplicate. */
const deliverTwice = async (batch: readonly Message[]) => {
  expect((await deliver(batch)).duplicateMessages).toBe(0);
  expect((await deliver(batch)).duplicateMessages).toBe(batch.length);
};

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    advertisers: [{ id: 80 }, { id: 81 }],
    campaigns: [{ id: 800, advertiserId: 80 }],
    banners: [{ id: 8000, campaignId: 800 }],
    users: [
      {
        id: 97,
        username: 'raises',
        password: 'raises-password',
        role: 'NETWORK',
        apiKeys: ['raises-key-0001'],
        permissions: { 'Manage Capping & Limitations': 'ENABLED', 'Total Clicks Limit': 'ENABLED' },
        access: [{ type: 'ADVERTISER', id: 80, level: 'UPDATE' }],
      },
    ],
  });
  await setClock(ctx.service.url, { now: '2026-11-25T10:00:00Z' });
  const limits = { totalClicksLimit: '4000000000' };
  expect((await caller().post('/rest-api/advertiser/80/limits/set.do', limits)).status).toBe(200);
});

describe('a shard count raised mid-stream', () => {
  it('moves some groups onto the added shards and keeps the others where they were', () => {
    const moved = GROUPS.filter((group) => shardOfGroup(group, 5, 2) !== shardOfGroup(group, 2));
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.length).toBeLessThan(GROUPS.length);
    for (const group of moved) expect(shardOfGroup(group, 5, 2)).toBeGreaterThanOrEqual(2);
  });

  it('counts every message once: redelivered, and delivered by a recorder still routing with the old count', async () => {
    expect(await (await shard(2)).json()).toEqual({ type: 'advertiser', id: 80, shards: 2, from: 1 });
    const early = [nextBatch(), nextBatch()];
    for (const batch of early) await deliverTwice(batch);
    expect(await totalClicks()).toBe(sent);

    // this delivery (the last batch again, and a new one) plans its writes with the count it knows (2); the raise
    // commits before they reach the table, and the groups that move find what their old shard applied
    const fresh = nextBatch();
    let raise: Promise<Response> | undefined;
    let refusedWrites = 0;
    const answer = await probingRequests(
      ctx.service,
      async (command, input, send) => {
        if (command !== 'UpdateItemCommand' || !JSON.stringify(input.Key).includes(ADVERTISER)) return send();
        await (raise ??= shard(5));
        return send().catch((error: unknown) => {
          if ((error as Error).name === 'ConditionalCheckFailedException') refusedWrites++;
          throw error;
        });
      },
      () => deliver([...early[1]!, ...fresh]),
    );
    expect(await (await raise!).json()).toEqual({ type: 'advertiser', id: 80, shards: 5, from: 2 });
    expect(answer.duplicateMessages).toBe(GROUPS.length);
    expect(refusedWrites).toBeGreaterThan(0);
    expect((await deliver(fresh)).duplicateMessages).toBe(fresh.length);
    for (const batch of early) expect((await deliver(batch)).duplicateMessages).toBe(batch.length);
    for (let batch = 0; batch < 2; batch++) await deliverTwice(nextBatch());
    expect(await totalClicks()).toBe(sent);

    const items = await counterItems();
    expect(items.map((item) => item.SK)).toEqual(['COUNTERS', 'COUNTERS#1', 'COUNTERS#2', 'COUNTERS#3', 'COUNTERS#4']);
    expect(items.map((item) => Number(item.shards ?? item.sc))).toEqual([5, 5, 5, 5, 5]);
    expect(items.reduce((sum, item) => sum + Number(item[TOTAL_CLICKS] ?? 0), 0)).toBe(sent);
    expect(items.slice(2).some((item) => Number(item[TOTAL_CLICKS] ?? 0) > 0)).toBe(true);
  });

  it('is never lowered: a lower count is a 400 naming shards, and the count stays', async () => {
    const lower = await shard(3);
    expect(lower.status).toBe(400);
    expect(((await lower.json()) as { errors: Record<string, string> }).errors).toEqual({
      shards: expect.stringContaining('at least 5'),
    });
    expect(await (await shard(5)).json()).toEqual({ type: 'advertiser', id: 80, shards: 5, from: 5 });
    const before = sent;
    await deliverTwice(nextBatch());
    expect(await totalClicks()).toBe(sent);
    expect(sent).toBeGreaterThan(before);
  });

  it('is raised by npm run shards, which says what it did and refuses to lower it', async () => {
    // in this worker: the spawned tool's wiring is cli-failures.test.ts's
    const shards = (count: number) =>
      runToolInProcess('scripts/shards.ts', ['--type', 'advertiser', '--id', '81', '--count', String(count)], {
        ...process.env,
        TABLE_NAME: ctx.service.dependencies.store.tableName,
        DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
      });
    expect((await shards(2)).stdout).toBe('advertiser 81: counters in 2 shards (were one item).\n');
    expect((await shards(4)).stdout).toBe('advertiser 81: counters in 4 shards (were 2 shards).\n');
    expect((await shards(4)).stdout).toBe('advertiser 81: counters in 4 shards already; nothing changed.\n');
    const lower = await shards(3);
    expect(lower.code).toBe(1);
    expect(lower.stderr).toContain('--count 3: advertiser 81 has 4 shards, and a count is never lowered.');
    const items = await ctx.service.dependencies.store.queryPartition('ADVERTISER#81', 'COUNTERS');
    expect(items.map((item) => Number(item.shards ?? item.sc))).toEqual([4, 4, 4, 4]);
  });
});
