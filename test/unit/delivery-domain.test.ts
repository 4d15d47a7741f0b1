import { describe, expect, it } from 'vitest';
import type { Entity } from '../../shared/domain/access';
import { aggregateDelivery, type Ancestry } from '../../shared/domain/delivery/aggregate';
import { deliveryEventSchema, millisToDecimal, parseDeliveryMessage, revenueMillis, type DeliveryEvent } from '../../shared/domain/delivery/delivery-event';
import { bucketCrossings, crosses } from '../../shared/domain/delivery/limit-reached';
import { DEMAND_GRID, SUPPLY_GRID } from '../../shared/domain/limits/cap-grid';
import type { LimitRecord } from '../../shared/domain/limits/limit-record';
import { planResetWrites } from '../../shared/domain/resets/reset-writes';
import { resetWriteKey } from '../../shared/resets/flush';
import { entityName } from '../../shared/domain/levels';
import { actionCounterKey } from '../../shared/table/keys';
import { elapsedDayFraction, entityStopReasons, servingDecision, type EntityServingState } from '../../shared/domain/serving/serving-decision';

const now = new Date('2026-11-22T12:00:00Z');
const ancestry: Ancestry = {
  banners: new Map([[1000, { campaignId: 100, advertiserId: 10 }]]),
  placements: new Map([[200, { siteId: 20 }]]),
};
const event = (fields: Record<string, unknown>): DeliveryEvent => deliveryEventSchema.parse(fields);

describe('delivery events', () => {
  it('parse one event or an array, and name what is wrong with a malformed one', () => {
    expect(parseDeliveryMessage('{"kind":"click","bannerId":1}')).toMatchObject({ ok: true, events: [{ kind: 'click', bannerId: 1, count: 1 }] });
    expect(parseDeliveryMessage('[{"kind":"click","bannerId":1},{"kind":"request","placementId":2,"count":3}]')).toMatchObject({ ok: true });
    for (const [body, reason] of [
      ['not json', 'not JSON'],
      ['[]', 'empty'],
      ['{"kind":"click"}', 'bannerId or placementId'],
      ['{"kind":"request","bannerId":1}', 'supply side'],
      ['{"kind":"click","bannerId":1,"actionId":7}', 'conversion'],
      ['{"kind":"click","bannerId":1,"revenue":"0.0001"}', 'revenue'],
      ['{"kind":"click","bannerId":1,"count":0}', 'count'],
      ['[{"kind":"click","bannerId":1},{"kind":"click","bannerId":-1}]', '[1].bannerId'],
      ['{"kind":"click","bannerId":1,"extra":true}', 'extra'],
    ] as const)
      expect(parseDeliveryMessage(body), body).toEqual({ ok: false, reason: expect.stringContaining(reason) });
  });

  it('keeps revenue exact in thousandths', () => {
    expect(revenueMillis('0.001')).toBe(1);
    expect(revenueMillis('12.5')).toBe(12500);
    expect(revenueMillis('1234567890123.999')).toBe(1234567890123999);
    expect(millisToDecimal(1000)).toBe('1.000');
    expect(millisToDecimal(1234567890123999)).toBe('1234567890123.999');
    expect(event({ kind: 'click', bannerId: 1, revenue: 0.25 }).revenue).toBe('0.25');
  });
});

describe('aggregating a batch', () => {
  it('counts a banner event on the banner, its campaign and its advertiser, and a placement event on the placement and its site', () => {
    const batch = aggregateDelivery([event({ kind: 'impression', bannerId: 1000, placementId: 200, count: 3, revenue: '0.5' })], ancestry, now);
    const entities = new Set(batch.buckets.map((bucket) => entityName(bucket.entityType, bucket.entityId)));
    expect(entities).toEqual(new Set(['BANNER#1000', 'CAMPAIGN#100', 'ADVERTISER#10', 'PLACEMENT#200', 'SITE#20']));
    expect(batch.buckets).toHaveLength(5 * 4);
    const campaignDay = batch.buckets.find((bucket) => entityName(bucket.entityType, bucket.entityId) === 'CAMPAIGN#100' && `CTR#${bucket.bucket}` === 'CTR#D#2026-11-22')!;
    expect(campaignDay).toMatchObject({ counts: { impressions: 3 }, revenueMillis: 1500 });
    // revenue is a demand-side (budget) counter
    expect(batch.buckets.find((bucket) => entityName(bucket.entityType, bucket.entityId) === 'SITE#20')!.revenueMillis).toBe(0);
  });

  it('writes one increment per (entity, bucket) however many events', () => {
    const events = Array.from({ length: 1000 }, () => event({ kind: 'click', bannerId: 1000, revenue: '0.001' }));
    const batch = aggregateDelivery(events, ancestry, now);
    expect(batch.buckets).toHaveLength(3 * 4);
    expect(batch.buckets.every((bucket) => bucket.counts.clicks === 1000 && bucket.revenueMillis === 1000)).toBe(true);
  });

  it('counts requests on the supply side only, and per-action conversions on every entity', () => {
    const batch = aggregateDelivery(
      [event({ kind: 'request', placementId: 200, bannerId: 1000 }), event({ kind: 'conversion', bannerId: 1000, placementId: 200, actionId: 7 })],
      ancestry,
      now,
    );
    expect(batch.buckets.filter((bucket) => bucket.counts.requests).map((bucket) => entityName(bucket.entityType, bucket.entityId))).toEqual(expect.arrayContaining(['PLACEMENT#200', 'SITE#20']));
    expect(batch.buckets.some((bucket) => entityName(bucket.entityType, bucket.entityId) === 'BANNER#1000' && bucket.counts.requests)).toBe(false);
    expect(new Set(batch.actions.map((action) => actionCounterKey(action.entityType, action.entityId, action.actionId, action.bucket).SK))).toEqual(new Set(['ACTCTR#7#D#2026-11-22', 'ACTCTR#7#T']));
    expect(batch.actions).toHaveLength(5 * 2);
  });

  it('drops and counts events for unknown entities', () => {
    const batch = aggregateDelivery([event({ kind: 'click', bannerId: 999 }), event({ kind: 'click', placementId: 200 })], ancestry, now);
    expect(batch).toMatchObject({ recordedEvents: 1, unknownEntityEvents: 1 });
  });

  it('files events by their own time', () => {
    const batch = aggregateDelivery([event({ kind: 'click', placementId: 200, at: '2026-10-31T23:59:00Z' })], ancestry, now);
    expect(batch.buckets.filter((bucket) => entityName(bucket.entityType, bucket.entityId) === 'PLACEMENT#200').map((bucket) => `CTR#${bucket.bucket}`).sort()).toEqual(['CTR#D#2026-10-31', 'CTR#M#2026-10', 'CTR#T', 'CTR#W#2026-W44']);
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
    expect(batch.noConversion.find((state) => entityName(state.entityType, state.entityId) === 'BANNER#1000')).toMatchObject({
      impressionsSinceConversion: 2,
      lastConversionAt: Date.parse('2026-11-22T11:00:00Z'),
    });
  });
});

describe('LimitReached', () => {
  it('is published when a write crosses the cap, equal counts included, and not after', () => {
    expect(crosses(100, 99, 100)).toBe(true);
    expect(crosses(100, 100, 101)).toBe(false);
    expect(crosses(0, 0, 5)).toBe(false);
    const limit = { id: 1, version: 1, caps: { dailyBudgetLimit: 1, dailyClicksLimit: 10 }, evenPacing: false, useLocalTime: false, timezoneOffset: 0 } as LimitRecord;
    const increment = { bucket: 'D#2026-11-22', entityType: 'CAMPAIGN' as const, entityId: 100, period: 'daily' as const, counts: { clicks: 3 }, revenueMillis: 1 };
    expect(bucketCrossings(increment, { clicks: 10, revenue: 1 }, limit, DEMAND_GRID, now).map((event) => event.cap)).toEqual(['dailyClicksLimit', 'dailyBudgetLimit']);
    expect(bucketCrossings(increment, { clicks: 13, revenue: 1.001 }, limit, DEMAND_GRID, now)).toEqual([]);
  });
});

describe('reset writes', () => {
  const request = (counters: string[]) => ({ entityType: 'CAMPAIGN' as const, entityId: 100, limitId: 1, counters, requestedAt: '', requestedBy: 1 });
  const attributes = (counters: string[]) =>
    planResetWrites(request(counters), [7], now).flatMap((write) => Object.keys(write.values).map((attribute) => `${resetWriteKey('CAMPAIGN', 100, write.target).SK}:${attribute}`)).sort();

  it('zeroes the named counters of the current buckets, REVENUE being the budget counter', () => {
    expect(attributes(['DAILY_IMPRESSIONS', 'TOTAL_REVENUE'])).toEqual(['CTR#D#2026-11-22:impressions', 'CTR#T:revenue']);
  });

  it('tells ALL_LIMITS, ALL_ACTION_LIMITS and ALL apart', () => {
    const limits = attributes(['ALL_LIMITS']);
    expect(limits).toHaveLength(24);
    expect(limits.every((entry) => entry.startsWith('CTR#'))).toBe(true);
    expect(attributes(['ALL_ACTION_LIMITS'])).toEqual(['ACTCTR#7#D#2026-11-22:conversions', 'ACTCTR#7#T:conversions']);
    expect(attributes(['ALL'])).toEqual([...limits, 'ACTCTR#7#D#2026-11-22:conversions', 'ACTCTR#7#T:conversions'].sort());
  });

  it('resets the no-conversion state', () => {
    const writes = planResetWrites(request(['NO_CONVERSIONS_HOURS', 'NO_CONVERSIONS_IMPRESSIONS']), [], now);
    expect(writes.map((write) => ({ key: resetWriteKey('CAMPAIGN', 100, write.target), values: write.values }))).toEqual([
      { key: { PK: 'CAMPAIGN#100', SK: 'NOCONV' }, values: { quietSince: now.getTime(), impressionsSinceConversion: 0 } },
    ]);
  });
});

describe('serving decision', () => {
  const entity = (fields: Partial<Entity> = {}): Entity => ({ type: 'CAMPAIGN', id: 100, deleted: false, active: true, advertiserId: 10, ...fields });
  const state = (fields: Partial<EntityServingState> = {}): EntityServingState => ({
    entity: entity(),
    grid: DEMAND_GRID,
    buckets: {},
    noConversion: { impressionsSinceConversion: 0 },
    perActionEnabled: false,
    perAction: [],
    ...fields,
  });
  const limit = (fields: Partial<LimitRecord> = {}): LimitRecord => ({ id: 1, version: 1, caps: {}, evenPacing: false, useLocalTime: false, timezoneOffset: 0, ...fields });

  it('stops at an equal count, not only above', () => {
    const capped = limit({ caps: { dailyImpressionsLimit: 100 } });
    expect(entityStopReasons(state({ limit: capped, buckets: { daily: { impressions: 99 } } }), now)).toEqual([]);
    expect(entityStopReasons(state({ limit: capped, buckets: { daily: { impressions: 100 } } }), now)).toEqual([
      { entity: 'CAMPAIGN#100', field: 'dailyImpressionsLimit', cap: 100, counter: 100 },
    ]);
  });

  it('stops outside [startDate, endDate]', () => {
    expect(entityStopReasons(state({ limit: limit({ startDate: now.getTime() + 1 }) }), now)[0]).toMatchObject({ field: 'startDate' });
    expect(entityStopReasons(state({ limit: limit({ endDate: now.getTime() - 1 }) }), now)[0]).toMatchObject({ field: 'endDate' });
    expect(entityStopReasons(state({ limit: limit({ startDate: now.getTime(), endDate: now.getTime() }) }), now)).toEqual([]);
  });

  it('stops for no conversions only when both thresholds are crossed', () => {
    const thresholds = entity({ noConversionHoursThreshold: 24, noConversionImpressionsThreshold: 1000 });
    const quiet = (hours: number, impressions: number) =>
      entityStopReasons(state({ entity: thresholds, noConversion: { quietSince: now.getTime() - hours * 3_600_000, impressionsSinceConversion: impressions } }), now);
    expect(quiet(25, 999)).toEqual([]);
    expect(quiet(23, 5000)).toEqual([]);
    expect(quiet(24, 1000)).toEqual([expect.objectContaining({ field: 'noConversion' })]);
  });

  it('applies per-action caps only while the switch is on', () => {
    const perAction = [{ actionId: 7, dailyConversionsLimit: 5, totalConversionsLimit: 0, dailyConversions: 5, totalConversions: 9 }];
    expect(entityStopReasons(state({ perAction }), now)).toEqual([]);
    expect(entityStopReasons(state({ perAction, perActionEnabled: true }), now)).toEqual([expect.objectContaining({ field: 'dailyConversionsLimit', actionId: 7 })]);
  });

  it('paces daily caps evenly through the UTC day', () => {
    expect(elapsedDayFraction(now)).toBe(0.5);
    const paced = limit({ evenPacing: true, caps: { dailyClicksLimit: 100, totalClicksLimit: 1000 } });
    expect(entityStopReasons(state({ limit: paced, buckets: { daily: { clicks: 49 } } }), now)).toEqual([]);
    expect(entityStopReasons(state({ limit: paced, buckets: { daily: { clicks: 50 } } }), now)).toEqual([
      expect.objectContaining({ field: 'dailyClicksLimit', evenPacing: true, pacedAllowance: 50 }),
    ]);
  });

  it('holds a banner back when its campaign or advertiser may not deliver', () => {
    const banner = state({ entity: entity({ type: 'BANNER', id: 1000, campaignId: 100 }) });
    const campaign = state({ limit: limit({ caps: { totalBudgetLimit: 1 } }), buckets: { total: { revenue: 1 } } });
    const advertiser = state({ entity: entity({ type: 'ADVERTISER', id: 10, advertiserId: undefined }) });
    expect(servingDecision([banner, campaign, advertiser], now)).toEqual({
      deliverable: false,
      reasons: [{ entity: 'CAMPAIGN#100', field: 'totalBudgetLimit', cap: 1, counter: 1 }],
    });
    expect(servingDecision([banner, advertiser], now)).toEqual({ deliverable: true, reasons: [] });
  });

  it('names caps the caller may not see without their numbers', () => {
    const hidden = entityStopReasons(state({ grid: SUPPLY_GRID, limit: limit({ caps: { dailyRequestsLimit: 1 } }), buckets: { daily: { requests: 1 } } }), now, () => false);
    expect(hidden).toEqual([{ entity: 'CAMPAIGN#100', field: 'dailyRequestsLimit', hiddenByPermission: 'Daily Requests Limit' }]);
  });
});
