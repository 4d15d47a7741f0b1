import { beforeAll, describe, expect, it } from 'vitest';
import { storedItem } from '../../shared/adapters/dynamodb/attribute-values';
import { counterAttribute } from '../../shared/adapters/dynamodb/counter-attributes';
import { countersKey } from '../../shared/table/keys';
import { itemSize } from '../../scripts/simulate/item-size';
import { importCatalog, postJson } from '../support/http';
import { useTestService } from '../support/local-service';

/**
 * Any number of message groups, of names as long as SQS allows (128 characters): 10,000 groups on one banner,
 * through the local server's queue, every message delivered twice. Each count is exact, and no counter item grows
 * past the stated bound (docs/exactly-once.md, Any number of message groups).
 */
const ctx = useTestService({ catalogFile: null });
const GROUPS = 10_000;
const BATCH = 10;
/** The bound on a counter item's size (bytes) the docs state: 32 slots of 128-character groups and the counters. */
const ITEM_BOUND = 8 * 1024;

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    advertisers: [{ id: 91 }],
    campaigns: [{ id: 910, advertiserId: 91 }],
    banners: [{ id: 9100, campaignId: 910 }],
  });
});

const groupName = (index: number) => `${String(index).padStart(6, '0')}-`.padEnd(128, 'g');

const deliver = async (messages: { messageId: string; group: string }[]) => {
  const response = await postJson(`${ctx.service.url}/_local/delivery`, {
    messages: messages.map((message) => ({ ...message, body: { kind: 'click', bannerId: 9100, count: 1 } })),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { failedMessageIds: string[]; duplicateMessages: number };
};

const stored = async (type: 'BANNER' | 'CAMPAIGN' | 'ADVERTISER', id: number) => {
  const item = (await ctx.service.dependencies.store.get(countersKey(type, id)))!;
  return { clicks: Number(item[counterAttribute('total', 'clicks')]), bytes: itemSize(storedItem(item)) };
};

describe('10,000 message groups of 128 characters on one banner', () => {
  it('count exactly once, redelivered too, and leave every counter item under the bound', async () => {
    let largest = 0;
    let duplicates = 0;
    for (let first = 0; first < GROUPS; first += BATCH) {
      const messages = Array.from({ length: BATCH }, (_, i) => ({
        messageId: `many-${first + i}`,
        group: groupName(first + i),
      }));
      expect((await deliver(messages)).failedMessageIds).toEqual([]);
      // the same batch again, as SQS redelivers it after a lost answer: the counters already hold it
      const again = await deliver(messages);
      expect(again.failedMessageIds).toEqual([]);
      duplicates += again.duplicateMessages;
      if (first % 1000 === 0) largest = Math.max(largest, (await stored('BANNER', 9100)).bytes);
    }
    expect(duplicates).toBe(GROUPS);
    for (const [type, id] of [
      ['BANNER', 9100],
      ['CAMPAIGN', 910],
      ['ADVERTISER', 91],
    ] as const) {
      const item = await stored(type, id);
      expect(item.clicks).toBe(GROUPS);
      expect(item.bytes).toBeLessThan(ITEM_BOUND);
      largest = Math.max(largest, item.bytes);
    }
    expect(largest).toBeLessThan(ITEM_BOUND);
  }, 3_600_000);
});
