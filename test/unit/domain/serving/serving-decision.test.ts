import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../../shared/domain/access';
import { ExactNumber } from '../../../../shared/domain/delivery/exact-units';
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
    counters: {},
    noConversion: { impressionsSinceConversion: 0n },
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
    expect(entityStopReasons(state({ limit: capped, counters: { daily: { impressions: 99n } } }), now)).toEqual([]);
    expect(entityStopReasons(state({ limit: capped, counters: { daily: { impressions: 100n } } }), now)).toEqual([
      { entity: 'CAMPAIGN#100', field: 'dailyImpressionsLimit', cap: 100, counter: new ExactNumber('100') },
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
          noConversion: {
            quietSince: now.getTime() - hours * 3_600_000,
            impressionsSinceConversion: BigInt(impressions),
          },
        }),
        now,
      );
    expect(quiet(25, 999)).toEqual([]);
    expect(quiet(23, 5000)).toEqual([]);
    expect(quiet(24, 1000)).toEqual([expect.objectContaining({ field: 'noConversion' })]);
  });

  it('applies per-action caps only while the switch is on', () => {
    const perAction = [
      { actionId: 7, dailyConversionsLimit: 5, totalConversionsLimit: 0, dailyConversions: 5n, totalConversions: 9n },
    ];
    expect(entityStopReasons(state({ perAction }), now)).toEqual([]);
    expect(entityStopReasons(state({ perAction, perActionEnabled: true }), now)).toEqual([
      expect.objectContaining({ field: 'dailyConversionsLimit', actionId: 7 }),
    ]);
  });

  it('paces daily caps evenly through the UTC day', () => {
    expect(elapsedDayFraction(now)).toBe(0.5);
    const paced = limit({ evenPacing: true, caps: { dailyClicksLimit: 100, totalClicksLimit: 1000 } });
    expect(entityStopReasons(state({ limit: paced, counters: { daily: { clicks: 49n } } }), now)).toEqual([]);
    expect(entityStopReasons(state({ limit: paced, counters: { daily: { clicks: 50n } } }), now)).toEqual([
      expect.objectContaining({ field: 'dailyClicksLimit', evenPacing: true, pacedAllowance: 50 }),
    ]);
  });

  it('holds a banner back when its campaign or advertiser may not deliver', () => {
    const banner = state({ entity: entity({ type: 'BANNER', id: 1000, campaignId: 100 }) });
    const campaign = state({ limit: limit({ caps: { totalBudgetLimit: 1 } }), counters: { total: { budget: 1000n } } });
    const advertiser = state({ entity: entity({ type: 'ADVERTISER', id: 10, advertiserId: undefined }) });
    expect(servingDecision([banner, campaign, advertiser], now)).toEqual({
      deliverable: false,
      reasons: [{ entity: 'CAMPAIGN#100', field: 'totalBudgetLimit', cap: 1, counter: new ExactNumber('1') }],
    });
    expect(servingDecision([banner, advertiser], now)).toEqual({ deliverable: true, reasons: [] });
  });

  it('tells of a cap the caller may not see, or an entity it holds no share on, only that the entity stops', () => {
    const capped = state({
      grid: SUPPLY_GRID,
      limit: limit({ caps: { dailyRequestsLimit: 1, dailyClicksLimit: 1 } }),
      counters: { daily: { requests: 1n, clicks: 1n } },
    });
    const everything = { entity: () => true, cap: () => true, perAction: true };
    expect(entityStopReasons(capped, now, { ...everything, cap: (cap) => cap.name !== 'dailyRequestsLimit' })).toEqual([
      { entity: 'CAMPAIGN#100', field: 'dailyClicksLimit', cap: 1, counter: new ExactNumber('1') },
      { entity: 'CAMPAIGN#100', hidden: true },
    ]);
    expect(entityStopReasons(capped, now, { ...everything, entity: () => false })).toEqual([
      { entity: 'CAMPAIGN#100', hidden: true },
    ]);
    expect(entityStopReasons(state(), now, { ...everything, entity: () => false })).toEqual([]);
    const perAction = [
      { actionId: 7, dailyConversionsLimit: 5, totalConversionsLimit: 0, dailyConversions: 5n, totalConversions: 9n },
    ];
    expect(
      entityStopReasons(state({ perAction, perActionEnabled: true }), now, { ...everything, perAction: false }),
    ).toEqual([{ entity: 'CAMPAIGN#100', hidden: true }]);
  });
});
