import { beforeAll, describe, expect, it } from 'vitest';
import { storedItem } from '../../shared/adapters/dynamodb/attribute-values';
import {
  counterAttribute,
  INLINE_COUNT_ATTRIBUTE,
  MARKER_PREFIX,
} from '../../shared/adapters/dynamodb/counter-attributes';
import { INLINE_MARKERS_PER_ITEM } from '../../shared/domain/delivery/group-markers';
import { countersKey, GROUP_MARKER_PREFIX } from '../../shared/table/keys';
import { itemSize } from '../../scripts/simulate/item-size';
import { COUNTER_ITEM_BOUND } from '../../scripts/simulate/counter-item-bound';
import { importCatalog, postJson } from '../support/http';
import { useTestService } from '../support/local-service';

/**
 * Any number of message groups, of names as long as SQS allows (128 characters): 10,000 groups on one banner,
 * through the local server's queue, every batch delivered twice. Each count is exact, and no counter item grows
 * past the stated bound (docs/exactly-once.md, Any number of message groups).
 */
const ctx = useTestService({ catalogFile: null });
const GROUPS = 10_000;
/** Batches of distinct groups: each is written in requests of 16 groups, so a batch's size only saves round trips. */
const BATCH = 500;

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

const ITEMS = [
  ['BANNER', 9100],
  ['CAMPAIGN', 910],
  ['ADVERTISER', 91],
] as const;

const stored = async ([type, id]: (typeof ITEMS)[number]) => {
  const item = (await ctx.service.dependencies.store.get(countersKey(type, id)))!;
  const inline = Object.keys(item).filter((name) => name.startsWith(MARKER_PREFIX)).length;
  return {
    clicks: Number(item[counterAttribute('total', 'clicks')]),
    bytes: itemSize(storedItem(item)),
    inline,
    counted: Number(item[INLINE_COUNT_ATTRIBUTE]),
  };
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
      for (const item of ITEMS) largest = Math.max(largest, (await stored(item)).bytes);
    }
    expect(duplicates).toBe(GROUPS);
    for (const target of ITEMS) {
      const item = await stored(target);
      expect(item.clicks, target.join('#')).toBe(GROUPS);
      expect(item.inline).toBe(INLINE_MARKERS_PER_ITEM);
      expect(item.counted).toBe(item.inline);
      const key = countersKey(target[0], target[1]);
      const beside = await ctx.service.dependencies.store.queryPartition(key.PK, `${GROUP_MARKER_PREFIX}${key.SK}#`);
      expect(beside).toHaveLength(GROUPS - INLINE_MARKERS_PER_ITEM);
    }
    expect(largest).toBeLessThanOrEqual(COUNTER_ITEM_BOUND);
  }, 600_000);
});
