import { beforeAll, describe, expect, it } from 'vitest';
import { counterAttribute } from '../../shared/adapters/dynamodb/counter-attributes';
import { countersKey } from '../../shared/table/keys';
import { importCatalog, postJson } from '../support/http';
import { useTestService } from '../support/local-service';

/**
 * The local server's queue behaves as SQS FIFO does: a message keeps its group and sequence on every redelivery,
 * and shard requests are parsed strictly.
 */
const ctx = useTestService({ catalogFile: null });
const BANNER = 8100;

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    advertisers: [{ id: 81 }],
    campaigns: [{ id: 810, advertiserId: 81 }],
    banners: [{ id: BANNER, campaignId: 810 }],
  });
});

const totalClicks = async (type: 'BANNER' | 'ADVERTISER', id: number) => {
  const item = await ctx.service.dependencies.store.get(countersKey(type, id));
  return Number(item?.[counterAttribute('total', 'clicks')] ?? 0);
};

const post = async (messages: { messageId: string; group?: string }[]) => {
  const response = await postJson(`${ctx.service.url}/_local/delivery`, {
    messages: messages.map((message) => ({ ...message, body: { kind: 'click', bannerId: BANNER, count: 1 } })),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('the local queue, as SQS FIFO', () => {
  it('keeps a message in its group when it is posted again without one: counted once', async () => {
    const before = await totalClicks('BANNER', BANNER);
    expect((await post([{ messageId: 'keep-1', group: 'feed-a' }])).status).toBe(200);
    const again = await post([{ messageId: 'keep-1' }]);
    expect(again.status).toBe(200);
    expect(again.body.duplicateMessages).toBe(1);
    expect(await totalClicks('BANNER', BANNER)).toBe(before + 1);
  });

  it('refuses the same message id under another group: 400 naming group, nothing counted', async () => {
    expect((await post([{ messageId: 'move-1', group: 'feed-a' }])).status).toBe(200);
    const before = await totalClicks('BANNER', BANNER);
    const moved = await post([
      { messageId: 'fresh-1', group: 'feed-b' },
      { messageId: 'move-1', group: 'feed-b' },
    ]);
    expect(moved.status).toBe(400);
    expect(moved.body.errors).toEqual({ 'messages[1].group': expect.stringContaining('feed-a') });
    expect(await totalClicks('BANNER', BANNER)).toBe(before);
    // the same id twice in one post, under two groups
    const twice = await post([
      { messageId: 'twice-1', group: 'feed-a' },
      { messageId: 'twice-1', group: 'feed-c' },
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual({ 'messages[1].group': expect.any(String) });
    expect(await totalClicks('BANNER', BANNER)).toBe(before);
    // refused posts assigned nothing: fresh-1 is still new, in the group it is now sent in
    const fresh = await post([{ messageId: 'fresh-1', group: 'feed-c' }]);
    expect(fresh.status).toBe(200);
    expect(fresh.body.duplicateMessages).toBe(0);
    expect(await totalClicks('BANNER', BANNER)).toBe(before + 1);
  });
});

describe('POST /_local/shards, strictly', () => {
  const shard = async (body: unknown) => {
    const response = await postJson(`${ctx.service.url}/_local/shards`, body);
    return { status: response.status, body: (await response.json()) as { errors?: Record<string, string> } };
  };
  const counterItem = () => ctx.service.dependencies.store.get(countersKey('ADVERTISER', 81));

  it.each([
    ['shards', { type: 'advertiser', id: 81, shards: true }],
    ['shards', { type: 'advertiser', id: 81, shards: '0x15' }],
    ['shards', { type: 'advertiser', id: 81, shards: [20] }],
    ['shards', { type: 'advertiser', id: 81, shards: '1e1' }],
    ['shards', { type: 'advertiser', id: 81, shards: ' 4' }],
    ['shards', { type: 'advertiser', id: 81, shards: 4.5 }],
    ['id', { type: 'advertiser', id: true, shards: 4 }],
    ['id', { type: 'advertiser', id: '0x51', shards: 4 }],
    ['id', { type: 'advertiser', id: [81], shards: 4 }],
    ['id', { type: 'advertiser', id: '8.1e1', shards: 4 }],
    ['type', { type: ['advertiser'], id: 81, shards: 4 }],
  ])('refuses %s in %j: 400 naming it, nothing set', async (field, body) => {
    const answer = await shard(body);
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.errors ?? {})).toEqual([field]);
    expect((await counterItem())?.shards).toBeUndefined();
  });

  it('refuses an entity that does not exist: 400 naming id, no counter item written', async () => {
    const answer = await shard({ type: 'campaign', id: 999_999, shards: 4 });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.errors ?? {})).toEqual(['id']);
    expect(await ctx.service.dependencies.store.get(countersKey('CAMPAIGN', 999_999))).toBeUndefined();
  });

  it('takes whole numbers as JSON numbers or decimal text', async () => {
    expect(await shard({ type: 'Advertiser', id: '81', shards: '4' })).toEqual({
      status: 200,
      body: { type: 'advertiser', id: 81, shards: 4, from: 1 },
    });
  });
});
