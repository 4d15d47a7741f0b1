import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { shardOfGroup } from '../../shared/domain/delivery/counter-shards';
import { apiClient, importCatalog, postJson, setClock } from '../support/http';
import { probingRequests, useTestService } from '../support/local-service';
import { clearWarmCaches } from '../../shared/support/warm-cache';
import { counterAttribute } from '../../shared/adapters/dynamodb/counter-attributes';

// automatic sharding: an advertiser written more than 10 times in a 10-second window gets 4 shards
process.env.AUTO_SHARD_WRITES_PER_SECOND = '1';
process.env.AUTO_SHARD_COUNT = '4';

/** Sharded counters through the local server: reads sum the shards, resets zero them, LimitReached on the sum. */
const ctx = useTestService({ catalogFile: null });
const caller = () => apiClient(ctx.service.url, 'shards-key-00001');

type Reached = { id: string; entity: string; cap: string; counter: number; bucket: string };
type Delivered = { duplicateMessages: number; limitReached: Reached[]; failedMessageIds: string[] };

/** A message per group (`g1`, `g2`, …), so that the advertiser's writes go to several shards. */
const deliver = async (messages: { id: string; group: string; clicks: number; bannerId?: number }[]) => {
  const response = await postJson(`${ctx.service.url}/_local/delivery`, {
    messages: messages.map(({ id, group, clicks, bannerId }) => ({
      messageId: id,
      group,
      body: { kind: 'click', bannerId: bannerId ?? 7000, count: clicks },
    })),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Delivered;
};
const shard = async (type: string, id: number, shards: number) => {
  const response = await postJson(`${ctx.service.url}/_local/shards`, { type, id, shards });
  expect(response.status).toBe(200);
  return (await response.json()) as { type: string; id: number; shards: number; from: number };
};
const read = async (path: string) => (await (await caller().get(path)).json()) as Record<string, number>;
const DAILY_CLICKS = counterAttribute('daily', 'clicks');
const counterItems = async (pk: string) =>
  (await ctx.service.dependencies.store.queryPartition(pk, 'COUNTERS')).map((item) => ({
    SK: item.SK,
    dailyClicks: item[DAILY_CLICKS] === undefined ? undefined : Number(item[DAILY_CLICKS]),
  }));
const told = async (entity: string) =>
  ((await (await fetch(`${ctx.service.url}/_local/events`)).json()) as Reached[]).filter(
    (event) => event.entity === entity,
  );

const GROUPS = ['g1', 'g2', 'g3', 'g4', 'g5', 'g6', 'g7', 'g8'];

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    advertisers: [{ id: 70 }, { id: 71 }, { id: 72 }, { id: 73 }],
    campaigns: [
      { id: 700, advertiserId: 70 },
      { id: 710, advertiserId: 71 },
      { id: 720, advertiserId: 72 },
      { id: 730, advertiserId: 73 },
    ],
    banners: [
      { id: 7000, campaignId: 700 },
      { id: 7100, campaignId: 710 },
      { id: 7200, campaignId: 720 },
      { id: 7300, campaignId: 730 },
    ],
    users: [
      {
        id: 96,
        username: 'shards',
        password: 'shards-password',
        role: 'NETWORK',
        apiKeys: ['shards-key-00001'],
        permissions: {
          'Manage Capping & Limitations': 'ENABLED',
          'Daily Clicks Limit': 'ENABLED',
          'Total Clicks Limit': 'ENABLED',
        },
        access: [70, 71, 72, 73].map((id) => ({ type: 'ADVERTISER', id, level: 'UPDATE' })),
      },
    ],
  });
});

afterEach(async () => {
  await setClock(ctx.service.url, { now: null });
});

describe('sharded counters', () => {
  it('are set, raised and never lowered: each answer names the count before', async () => {
    expect(await shard('advertiser', 72, 3)).toEqual({ type: 'advertiser', id: 72, shards: 3, from: 1 });
    expect(await shard('ADVERTISER', 72, 5)).toEqual({ type: 'advertiser', id: 72, shards: 5, from: 3 });
    expect(await shard('advertiser', 72, 5)).toEqual({ type: 'advertiser', id: 72, shards: 5, from: 5 });
    const lower = await postJson(`${ctx.service.url}/_local/shards`, { type: 'advertiser', id: 72, shards: 4 });
    expect(lower.status).toBe(400);
    expect(((await lower.json()) as { errors: Record<string, string> }).errors).toEqual({ shards: expect.any(String) });
    expect((await counterItems('ADVERTISER#72')).map((item) => item.SK)).toEqual([
      'COUNTERS',
      'COUNTERS#1',
      'COUNTERS#2',
      'COUNTERS#3',
      'COUNTERS#4',
    ]);
    const bad = await postJson(`${ctx.service.url}/_local/shards`, { type: 'advert', id: 0, shards: 1 });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: Record<string, string> }).errors).toEqual({
      type: expect.any(String),
      id: expect.any(String),
      shards: expect.any(String),
    });
  });

  it('read as the sum of the shards, warm in one request; status.do and status see the sum', async () => {
    await setClock(ctx.service.url, { now: '2026-11-25T10:00:00Z' });
    for (const id of [70, 71]) {
      const limits = { dailyClicksLimit: '1000', totalClicksLimit: '1000' };
      expect((await caller().post(`/rest-api/advertiser/${id}/limits/set.do`, limits)).status).toBe(200);
    }
    await shard('advertiser', 70, 4);
    await deliver(GROUPS.map((group, index) => ({ id: `sum-${group}`, group, clicks: index + 1 })));
    const written = (await counterItems('ADVERTISER#70')).filter((item) => item.dailyClicks !== undefined);
    expect(new Set(GROUPS.map((group) => shardOfGroup(group, 4))).size).toBeGreaterThan(1);
    expect(written.length).toBe(new Set(GROUPS.map((group) => shardOfGroup(group, 4))).size);
    expect(await read('/rest-api/advertiser/70/limits.do')).toMatchObject({ dailyClicks: 36, totalClicks: 36 });
    const sent: string[] = [];
    const warm = await probingRequests(
      ctx.service,
      async (command, _input, send) => {
        sent.push(command);
        return send();
      },
      () => read('/rest-api/advertiser/70/limits.do'),
    );
    expect(warm).toMatchObject({ dailyClicks: 36, totalClicks: 36 });
    expect(sent).toEqual(['BatchGetItemCommand']);
    expect((await caller().get('/rest-api/banner/7000/limits/status.do')).status).toBe(200);
  });

  it('count a message applied before its entity was sharded once, when it comes back after', async () => {
    await setClock(ctx.service.url, { now: '2026-11-25T11:00:00Z' });
    // a group whose shard is not 0: its marker is on shard 0 from before, and its shard has none yet
    const group = GROUPS.find((candidate) => shardOfGroup(candidate, 4) !== 0)!;
    await deliver([{ id: 'switch-1', group, clicks: 5, bannerId: 7100 }]);
    await shard('advertiser', 71, 4);
    const again = await deliver([{ id: 'switch-1', group, clicks: 5, bannerId: 7100 }]);
    expect(again.duplicateMessages).toBe(1);
    await deliver([{ id: 'switch-2', group, clicks: 2, bannerId: 7100 }]);
    expect(await read('/rest-api/advertiser/71/limits.do')).toMatchObject({ dailyClicks: 7 });
    // every shard is made with the count; only the group's shard holds its clicks
    expect((await counterItems('ADVERTISER#71')).filter((item) => item.dailyClicks !== undefined)).toEqual([
      { SK: 'COUNTERS', dailyClicks: 5 },
      { SK: `COUNTERS#${shardOfGroup(group, 4)}`, dailyClicks: 2 },
    ]);
  });

  it('are not written on shard 0 by a container that has not seen the entity sharded', async () => {
    await setClock(ctx.service.url, { now: '2026-11-25T11:30:00Z' });
    const group = GROUPS.find((candidate) => shardOfGroup(candidate, 4) !== 0)!;
    await deliver([{ id: 'stale-2', group, clicks: 4, bannerId: 7100 }]);
    // another container, which knows no shard count: its write to shard 0 fails on the count, and it learns it
    clearWarmCaches();
    const again = await deliver([{ id: 'stale-2', group, clicks: 4, bannerId: 7100 }]);
    expect(again.duplicateMessages).toBe(1);
    expect(await read('/rest-api/advertiser/71/limits.do')).toMatchObject({ dailyClicks: 11 });
  });

  it('are all cleared with the limit by DELETE limits.do, keeping what they applied', async () => {
    await setClock(ctx.service.url, { now: '2026-11-25T11:40:00Z' });
    const group = GROUPS.find((candidate) => shardOfGroup(candidate, 4) !== 0)!;
    expect(await read('/rest-api/advertiser/71/limits.do')).toMatchObject({ dailyClicks: 11 });
    expect((await caller().delete('/rest-api/advertiser/71/limits.do')).status).toBe(200);
    const items = await counterItems('ADVERTISER#71');
    expect(items.map((item) => item.SK)).toEqual(['COUNTERS', 'COUNTERS#1', 'COUNTERS#2', 'COUNTERS#3']);
    expect(items.every((item) => item.dailyClicks === undefined)).toBe(true);
    // a message counted before the delete, delivered again after it, stays counted once (not again)
    expect((await deliver([{ id: 'stale-2', group, clicks: 4, bannerId: 7100 }])).duplicateMessages).toBe(1);
    const limits = { dailyClicksLimit: '1000', totalClicksLimit: '1000' };
    expect((await caller().post('/rest-api/advertiser/71/limits/set.do', limits)).status).toBe(200);
    expect(await read('/rest-api/advertiser/71/limits.do')).toMatchObject({ dailyClicks: 0, totalClicks: 0 });
  });

  it('are all zeroed by a reset, in its transaction', async () => {
    await setClock(ctx.service.url, { now: '2026-11-25T12:00:00Z' });
    expect((await read('/rest-api/advertiser/70/limits.do')).dailyClicks).toBe(36);
    const reset = await caller().post('/rest-api/advertiser/70/limits/reset.do', { limitCounters: 'DAILY_CLICKS' });
    expect(reset.status).toBe(200);
    const flushed = await postJson(`${ctx.service.url}/_local/flush`, {});
    expect(await flushed.json()).toMatchObject({ applied: 1 });
    const items = (await counterItems('ADVERTISER#70')).filter((item) => item.dailyClicks !== undefined);
    expect(items.length).toBeGreaterThan(1);
    expect(items.every((item) => item.dailyClicks === 0)).toBe(true);
    expect(await read('/rest-api/advertiser/70/limits.do')).toMatchObject({ dailyClicks: 0, totalClicks: 36 });
  });

  it('tell LimitReached once, when the sum of the shards reaches the cap, with an unsharded crossing id', async () => {
    await setClock(ctx.service.url, { now: '2026-11-26T09:00:00Z' });
    expect((await caller().post('/rest-api/advertiser/70/limits/update.do', { dailyClicksLimit: '10' })).status).toBe(
      200,
    );
    // 3 clicks a message in four groups: the sum passes 10 on the fourth, whichever shard that one writes
    for (const [index, group] of GROUPS.slice(0, 3).entries())
      await deliver([{ id: `cross-${index}`, group, clicks: 3 }]);
    expect(await told('ADVERTISER#70')).toEqual([]);
    await deliver([{ id: 'cross-3', group: GROUPS[3]!, clicks: 3 }]);
    await deliver([{ id: 'cross-4', group: GROUPS[4]!, clicks: 1 }]);
    const events = await told('ADVERTISER#70');
    expect(events).toEqual([
      expect.objectContaining({
        // as an unsharded entity's: the advertiser's counters were reset before (the reset above)
        id: `ADVERTISER#70/dailyClicksLimit=10/D#2026-11-26/reset@${Date.parse('2026-11-25T12:00:00Z')}`,
        cap: 'dailyClicksLimit',
        counter: 12,
        bucket: 'D#2026-11-26',
      }),
    ]);
    const decision = (await (await caller().get('/rest-api/banner/7000/limits/status.do')).json()) as {
      deliverable: boolean;
      reasons: unknown[];
    };
    expect(decision.deliverable).toBe(false);
    expect(decision.reasons).toContainEqual(
      expect.objectContaining({ entity: 'ADVERTISER#70', field: 'dailyClicksLimit', cap: 10, counter: 13 }),
    );
  });

  it('are made for an advertiser whose counters take more writes a second than AUTO_SHARD_WRITES_PER_SECOND', async () => {
    await setClock(ctx.service.url, { now: '2026-11-27T09:00:00Z' });
    const limits = { dailyClicksLimit: '1000', totalClicksLimit: '1000' };
    expect((await caller().post('/rest-api/advertiser/73/limits/set.do', limits)).status).toBe(200);
    // one write a batch: the 11th within the window passes its allowance of 10 and shards the advertiser
    for (let i = 0; i < 10; i++) await deliver([{ id: `auto-${i}`, group: 'auto', clicks: 1, bannerId: 7300 }]);
    expect(await counterItems('ADVERTISER#73')).toEqual([{ SK: 'COUNTERS', dailyClicks: 10 }]);
    await deliver([{ id: 'auto-10', group: 'auto', clicks: 1, bannerId: 7300 }]);
    const shardZero = await ctx.service.dependencies.store.get({ PK: 'ADVERTISER#73', SK: 'COUNTERS' });
    expect(shardZero?.shards).toBe(4);
    await deliver(GROUPS.map((group) => ({ id: `auto-${group}`, group, clicks: 2, bannerId: 7300 })));
    expect((await counterItems('ADVERTISER#73')).length).toBeGreaterThan(1);
    expect(await read('/rest-api/advertiser/73/limits.do')).toMatchObject({ dailyClicks: 27, totalClicks: 27 });
  });
});
