import { beforeAll, describe, expect, it } from 'vitest';
import { recordDelivery } from '../../shared/delivery/recorder';
import { countersKey } from '../../shared/table/keys';
import { importCatalog } from '../support/http';
import { useTestService } from '../support/local-service';
import { counterAttribute, MARKER_PREFIX } from '../../shared/adapters/dynamodb/counter-attributes';

/**
 * A producer that uses many message groups (one per ad server host) leaves one marker per group on every counter
 * item; markers of groups idle past the horizon are pruned in the same writes, so items stay bounded.
 */
const ctx = useTestService();
const DAY = 86_400_000;
const START = Date.parse('2026-10-01T01:00:00Z');
const BANNER = 9000;

let current = new Date(START);
const ports = () => ({ ...ctx.service.dependencies, clock: { now: () => current } });

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    advertisers: [{ id: 90 }],
    campaigns: [{ id: 900, advertiserId: 90 }],
    banners: [{ id: BANNER, campaignId: 900 }],
  });
});

const markersOf = async () => {
  const item = (await ctx.service.dependencies.store.get(countersKey('BANNER', BANNER)))!;
  return {
    markers: Object.keys(item).filter((name) => name.startsWith(MARKER_PREFIX)).length,
    bytes: JSON.stringify(item).length,
    total: Number(item[counterAttribute('total', 'impressions')]),
  };
};

describe('message-group markers', () => {
  it('of 1,000 groups over 30 days: those idle past the horizon are pruned, and every message counts once', async () => {
    // 34 new groups a day, each sending one message
    const GROUPS_A_DAY = 34;
    let sent = 0;
    let largest = { markers: 0, bytes: 0 };
    for (let day = 0; sent < 1000; day++) {
      current = new Date(START + day * DAY);
      const messages = Array.from({ length: Math.min(GROUPS_A_DAY, 1000 - sent) }, (_, i) => ({
        messageId: `day${day}-${i}`,
        body: JSON.stringify({ kind: 'impression', bannerId: BANNER }),
        group: `host-${sent + i}`,
        sequence: '1',
        sentAt: current.getTime(),
      }));
      sent += messages.length;
      const answer = await recordDelivery(ports(), messages);
      expect(answer.failedMessageIds).toEqual([]);
      expect(answer.summary.deadLettered).toEqual([]);
      const now = await markersOf();
      largest = { markers: Math.max(largest.markers, now.markers), bytes: Math.max(largest.bytes, now.bytes) };
    }
    const after = await markersOf();
    expect(after.total).toBe(1000);
    // at most the groups of the last 15 days and of the write's own day; without pruning, 1,000
    expect(largest.markers).toBeLessThanOrEqual(GROUPS_A_DAY * 16);
    expect(largest.markers).toBeLessThan(1000);
    expect(largest.bytes).toBeLessThan(40_000);
  }, 120_000);

  it('refuses a message sent before the redelivery horizon: dead-lettered with its reason, not counted', async () => {
    current = new Date(START + 60 * DAY);
    const before = await markersOf();
    const answer = await recordDelivery(ports(), [
      {
        messageId: 'old',
        body: JSON.stringify({ kind: 'impression', bannerId: BANNER, count: 5 }),
        group: 'host-0',
        sequence: '1',
        sentAt: current.getTime() - 15 * DAY,
      },
    ]);
    expect(answer.failedMessageIds).toEqual([]);
    expect(answer.summary.deadLettered).toEqual([
      { messageId: 'old', reason: expect.stringContaining('past the redelivery horizon') },
    ]);
    expect((await markersOf()).total).toBe(before.total);
  });
});
