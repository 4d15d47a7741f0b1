import { beforeAll, describe, expect, it } from 'vitest';
import { counterAttribute } from '../../shared/adapters/dynamodb/counter-attributes';
import { INLINE_MARKERS_PER_ITEM } from '../../shared/domain/delivery/group-markers';
import { countersKey, GROUP_MARKER_PREFIX } from '../../shared/table/keys';
import { importCatalog, postJson } from '../support/http';
import { probingRequests, useTestService } from '../support/local-service';

/**
 * A message the queue hands out again (`ApproximateReceiveCount` above 1) is planned from a read of its counter items
 * and markers, not sent blind: a batch every item already holds costs reads and no write, not a transaction
 * DynamoDB refuses; a redelivered message an item lacks is written from that read, once.
 */
const ctx = useTestService({ catalogFile: null });
/** More groups than a counter item holds itself: some markers are kept beside the item, in a transaction. */
const GROUPS = INLINE_MARKERS_PER_ITEM + 8;
const WRITES = /^(PutItem|UpdateItem|DeleteItem|BatchWriteItem|TransactWriteItems)Command$/;

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    advertisers: [{ id: 71 }],
    campaigns: [{ id: 710, advertiserId: 71 }],
    banners: [{ id: 7100, campaignId: 710 }],
  });
});

const batch = (prefix: string) =>
  Array.from({ length: GROUPS }, (_, index) => ({
    messageId: `${prefix}-${index}`,
    group: `${prefix}-group-${index}`,
    body: { kind: 'click', bannerId: 7100, count: 1 },
  }));

/** Posts the batch to the local queue, and answers what it did and the requests the recorder sent for it. */
const deliver = async (messages: ReturnType<typeof batch>) => {
  const sent: string[] = [];
  const answer = await probingRequests(
    ctx.service,
    async (name, _input, next) => {
      sent.push(name);
      return next();
    },
    () => postJson(`${ctx.service.url}/_local/delivery`, { messages }),
  );
  expect(answer.status).toBe(200);
  const { failedMessageIds, duplicateMessages } = (await answer.json()) as {
    failedMessageIds: string[];
    duplicateMessages: number;
  };
  return { failedMessageIds, duplicateMessages, writes: sent.filter((name) => WRITES.test(name)) };
};

const clicks = async (type: 'BANNER' | 'CAMPAIGN' | 'ADVERTISER', id: number) =>
  Number((await ctx.service.dependencies.store.get(countersKey(type, id)))?.[counterAttribute('total', 'clicks')]);

describe('a redelivered batch', () => {
  it('that every counter item holds is read, and not written', async () => {
    const messages = batch('held');
    const first = await deliver(messages);
    expect(first.failedMessageIds).toEqual([]);
    expect(first.writes).toContain('TransactWriteItemsCommand');
    const key = countersKey('BANNER', 7100);
    const beside = await ctx.service.dependencies.store.queryPartition(key.PK, `${GROUP_MARKER_PREFIX}${key.SK}#`);
    expect(beside.length).toBe(GROUPS - INLINE_MARKERS_PER_ITEM);

    const again = await deliver(messages);
    expect(again).toEqual({ failedMessageIds: [], duplicateMessages: GROUPS, writes: [] });
    expect(await clicks('BANNER', 7100)).toBe(GROUPS);
    expect(await clicks('ADVERTISER', 71)).toBe(GROUPS);
  });

  it('that one counter item lacks is written there once, from the read', async () => {
    const messages = batch('lacking');
    // the first delivery fails its first write: one item takes nothing, the others take the batch
    await postJson(`${ctx.service.url}/_local/faults`, { failWrites: [1] });
    const first = await deliver(messages);
    expect(first.failedMessageIds.length).toBeGreaterThan(0);
    await postJson(`${ctx.service.url}/_local/faults`, { failWrites: [] });

    const again = await deliver(messages);
    expect(again.failedMessageIds).toEqual([]);
    expect(again.writes.length).toBeGreaterThan(0);
    for (const [type, id] of [
      ['BANNER', 7100],
      ['CAMPAIGN', 710],
      ['ADVERTISER', 71],
    ] as const)
      expect(await clicks(type, id), `${type}#${id}`).toBe(2 * GROUPS);
  });
});
