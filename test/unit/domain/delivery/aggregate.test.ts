import { describe, expect, it } from 'vitest';
import { aggregateDelivery, type Ancestry } from '../../../../shared/domain/delivery/aggregate';
import { deliveryEventSchema, type DeliveryEvent } from '../../../../shared/domain/delivery/delivery-event';
import { entityName } from '../../../../shared/domain/levels';
import { actionCounterKey } from '../../../../shared/table/keys';

const now = new Date('2026-11-22T12:00:00Z');
const ancestry: Ancestry = {
  banners: new Map([[1000, { campaignId: 100, advertiserId: 10 }]]),
  placements: new Map([[200, { siteId: 20 }]]),
};
const event = (fields: Record<string, unknown>): DeliveryEvent => deliveryEventSchema.parse(fields);

describe('aggregating a batch', () => {
  it('counts a banner event on the banner, its campaign and its advertiser, and a placement event on the placement and its site', () => {
    const batch = aggregateDelivery(
      [event({ kind: 'impression', bannerId: 1000, placementId: 200, count: 3, revenue: '0.5' })],
      ancestry,
      now,
    );
    const entities = new Set(batch.buckets.map((bucket) => entityName(bucket.entityType, bucket.entityId)));
    expect(entities).toEqual(new Set(['BANNER#1000', 'CAMPAIGN#100', 'ADVERTISER#10', 'PLACEMENT#200', 'SITE#20']));
    expect(batch.buckets).toHaveLength(5 * 4);
    const campaignDay = batch.buckets.find(
      (bucket) =>
        entityName(bucket.entityType, bucket.entityId) === 'CAMPAIGN#100' &&
        `CTR#${bucket.bucket}` === 'CTR#D#2026-11-22',
    )!;
    expect(campaignDay).toMatchObject({ counts: { impressions: 3 }, revenueMillis: 1500 });
    // revenue is a demand-side (budget) counter
    expect(
      batch.buckets.find((bucket) => entityName(bucket.entityType, bucket.entityId) === 'SITE#20')!.revenueMillis,
    ).toBe(0);
  });

  it('writes one increment per (entity, bucket) however many events', () => {
    const events = Array.from({ length: 1000 }, () => event({ kind: 'click', bannerId: 1000, revenue: '0.001' }));
    const batch = aggregateDelivery(events, ancestry, now);
    expect(batch.buckets).toHaveLength(3 * 4);
    expect(batch.buckets.every((bucket) => bucket.counts.clicks === 1000 && bucket.revenueMillis === 1000)).toBe(true);
  });

  it('counts requests on the supply side only, and per-action conversions on every entity', () => {
    const batch = aggregateDelivery(
      [
        event({ kind: 'request', placementId: 200, bannerId: 1000 }),
        event({ kind: 'conversion', bannerId: 1000, placementId: 200, actionId: 7 }),
      ],
      ancestry,
      now,
    );
    expect(
      batch.buckets
        .filter((bucket) => bucket.counts.requests)
        .map((bucket) => entityName(bucket.entityType, bucket.entityId)),
    ).toEqual(expect.arrayContaining(['PLACEMENT#200', 'SITE#20']));
    expect(
      batch.buckets.some(
        (bucket) => entityName(bucket.entityType, bucket.entityId) === 'BANNER#1000' && bucket.counts.requests,
      ),
    ).toBe(false);
    expect(
      new Set(
        batch.actions.map(
          (action) => actionCounterKey(action.entityType, action.entityId, action.actionId, action.bucket).SK,
        ),
      ),
    ).toEqual(new Set(['ACTCTR#7#D#2026-11-22', 'ACTCTR#7#T']));
    expect(batch.actions).toHaveLength(5 * 2);
  });

  it('drops and counts events for unknown entities', () => {
    const batch = aggregateDelivery(
      [event({ kind: 'click', bannerId: 999 }), event({ kind: 'click', placementId: 200 })],
      ancestry,
      now,
    );
    expect(batch).toMatchObject({ recordedEvents: 1, unknownEntityEvents: 1 });
  });

  it('files events by their own time', () => {
    const batch = aggregateDelivery(
      [event({ kind: 'click', placementId: 200, at: '2026-10-31T23:59:00Z' })],
      ancestry,
      now,
    );
    expect(
      batch.buckets
        .filter((bucket) => entityName(bucket.entityType, bucket.entityId) === 'PLACEMENT#200')
        .map((bucket) => `CTR#${bucket.bucket}`)
        .sort(),
    ).toEqual(['CTR#D#2026-10-31', 'CTR#M#2026-10', 'CTR#T', 'CTR#W#2026-W44']);
  });

  it('restarts the impressions-since-conversion count at a conversion', () => {
    const batch = aggregateDelivery(
      [
        event({ kind: 'impression', bannerId: 1000, count: 5, at: '2026-11-22T10:00:00Z' }),
        event({ kind: 'conversion', bannerId: 1000, at: '2026-11-22T11:00:00Z' }),
        event({ kind: 'impression', bannerId: 1000, count: 2, at: '2026-11-22T11:30:00Z' }),
      ],
      ancestry,
      now,
    );
    expect(
      batch.noConversion.find((state) => entityName(state.entityType, state.entityId) === 'BANNER#1000'),
    ).toMatchObject({
      impressionsSinceConversion: 2,
      lastConversionAt: Date.parse('2026-11-22T11:00:00Z'),
    });
  });
});
