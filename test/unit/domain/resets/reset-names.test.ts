import { describe, expect, it } from 'vitest';
import { RESET_NAMES, resetNameOf, resetScope } from '../../../../shared/domain/resets/reset-names';

describe('reset names', () => {
  it('are built by one formula, REVENUE standing for the budget', () => {
    expect(resetNameOf('daily', 'impressions')).toBe('DAILY_IMPRESSIONS');
    expect(resetNameOf('total', 'budget')).toBe('TOTAL_REVENUE');
    expect(resetNameOf('weekly', 'requests')).toBe('WEEKLY_REQUESTS');
  });

  it('expand groups: ALL is ALL_LIMITS and ALL_ACTION_LIMITS', () => {
    expect(resetScope(['ALL'])).toMatchObject({ counters: [], allDeliveryCounters: true, allActionCounters: true });
    expect(resetScope(['ALL_LIMITS'])).toMatchObject({ allDeliveryCounters: true, allActionCounters: false });
    expect(resetScope(['ALL_ACTION_LIMITS'])).toMatchObject({ allDeliveryCounters: false, allActionCounters: true });
    expect(resetScope(['MONTHLY_REVENUE', 'NO_CONVERSIONS_HOURS'])).toEqual({
      counters: [{ period: 'monthly', metric: 'budget' }],
      allDeliveryCounters: false,
      allActionCounters: false,
      noConversionHours: true,
      noConversionImpressions: false,
    });
  });

  it('parse back only what the formula builds', () => {
    for (const name of RESET_NAMES) {
      const scope = resetScope([name]);
      const named = scope.counters.length + Number(scope.allDeliveryCounters || scope.allActionCounters);
      const noConversion = Number(scope.noConversionHours) + Number(scope.noConversionImpressions);
      expect(named + noConversion, name).toBe(1);
    }
    expect(resetScope(['DAILY_BUDGET', 'daily_impressions']).counters).toEqual([]);
  });
});
