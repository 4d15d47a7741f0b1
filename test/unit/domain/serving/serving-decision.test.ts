import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../../shared/domain/access';
import { DEMAND_GRID, SUPPLY_GRID } from '../../../../shared/domain/limits/cap-grid';
import type { LimitRecord } from '../../../../shared/domain/limits/limit-record';
import {
  elapsedDayFraction,
  entityStopReasons,
  servingDecision,
  type EntityServingState,
} from '../../../../shared/domain/serving/serving-decision';

const now = new Date('2026-11-22T12:00:00Z');

describe('serving decision', () => {
  const entity = (fields: Partial<Entity> = {}): Entity => ({
    type: 'CAMPAIGN',
    id: 100,
    deleted: false,
    active: true,
    advertiserId: 10,
    ...fields,
  });
  const state = (fields: Partial<EntityServingState> = {}): EntityServingState => ({
    entity: entity(),
    grid: DEMAND_GRID,
    buckets: {},
    noConversion: { impressionsSinceConversion: 0 },
    perActionEnabled: false,
    perAction: [],
    ...fields,
  });
  const limit = (fields: Partial<LimitRecord> = {}): LimitRecord => ({
    id: 1,
    version: 1,
    caps: {},
    evenPacing: false,
    useLocalTime: false,
    timezoneOffset: 0,
    ...fields,
  });

  it('stops at an equal count, not only above', () => {
    const capped = limit({ caps: { dailyImpressionsLimit: 100 } });
    expect(entityStopReasons(state({ limit: capped, buckets: { daily: { impressions: 99 } } }), now)).toEqual([]);
    expect(entityStopReasons(state({ limit: capped, buckets: { daily: { impressions: 100 } } }), now)).toEqual([
      { entity: 'CAMPAIGN#100', field: 'dailyImpressionsLimit', cap: 100, counter: 100 },
    ]);
  });

  it('stops outside [startDate, endDate]', () => {
    expect(entityStopReasons(state({ limit: limit({ startDate: now.getTime() + 1 }) }), now)[0]).toMatchObject({
      field: 'startDate',
    });
    expect(entityStopReasons(state({ limit: limit({ endDate: now.getTime() - 1 }) }), now)[0]).toMatchObject({
      field: 'endDate',
    });
    expect(
      entityStopReasons(state({ limit: limit({ startDate: now.getTime(), endDate: now.getTime() }) }), now),
    ).toEqual([]);
  });

  it('stops for no conversions only when both thresholds are crossed', () => {
    const thresholds = entity({ noConversionHoursThreshold: 24, noConversionImpressionsThreshold: 1000 });
    const quiet = (hours: number, impressions: number) =>
      entityStopReasons(
        state({
          entity: thresholds,
          noConversion: { quietSince: now.getTime() - hours * 3_600_000, impressionsSinceConversion: impressions },
        }),
        now,
      );
    expect(quiet(25, 999)).toEqual([]);
    expect(quiet(23, 5000)).toEqual([]);
    expect(quiet(24, 1000)).toEqual([expect.objectContaining({ field: 'noConversion' })]);
  });

  it('applies per-action caps only while the switch is on', () => {
    const perAction = [
      { actionId: 7, dailyConversionsLimit: 5, totalConversionsLimit: 0, dailyConversions: 5, totalConversions: 9 },
    ];
    expect(entityStopReasons(state({ perAction }), now)).toEqual([]);
    expect(entityStopReasons(state({ perAction, perActionEnabled: true }), now)).toEqual([
      expect.objectContaining({ field: 'dailyConversionsLimit', actionId: 7 }),
    ]);
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
    const hidden = entityStopReasons(
      state({
        grid: SUPPLY_GRID,
        limit: limit({ caps: { dailyRequestsLimit: 1 } }),
        buckets: { daily: { requests: 1 } },
      }),
      now,
      () => false,
    );
    expect(hidden).toEqual([
      { entity: 'CAMPAIGN#100', field: 'dailyRequestsLimit', hiddenByPermission: 'Daily Requests Limit' },
    ]);
  });
});
