import { resetNameOf } from '../resets/reset-names';
import { PERIODS, type Metric, type Period } from './cap-axes';

const PERIOD_WORDS: Record<Period, string> = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly', total: 'Total' };

export const COUNT_CAP_MAXIMUM = 4_000_000_000;
export const BUDGET_CAP_MAXIMUM = 9_999_999_999.999;

export interface CapDefinition {
  /** Parameter name, e.g. `dailyImpressionsLimit`. */
  name: string;
  /** Read-only counter beside it, e.g. `dailyImpressions`. */
  counter: string;
  metric: Metric;
  period: Period;
  valueType: 'count' | 'budget';
  maximum: number;
  /** Permission that guards it, exactly as the spec names it. */
  permission: string;
  /** Reset counter name, e.g. `DAILY_IMPRESSIONS`. */
  resetName: string;
}

export interface CapGrid {
  caps: readonly CapDefinition[];
  byName: ReadonlyMap<string, CapDefinition>;
  byCounter: ReadonlyMap<string, CapDefinition>;
}

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

const demandPermission = (metric: Metric, period: Period): string => {
  const word = PERIOD_WORDS[period];
  if (metric === 'budget') return period === 'total' ? 'Budget' : `${word} Budget`;
  return `${word} ${capitalised(metric)} Limit`;
};

const inventoryPermission = (metric: Metric, period: Period): string =>
  `${PERIOD_WORDS[period]} ${capitalised(metric)} Limit`;

const buildGrid = (metrics: readonly Metric[], permissionOf: (metric: Metric, period: Period) => string): CapGrid => {
  const caps = PERIODS.flatMap((period) =>
    metrics.map((metric): CapDefinition => {
      const counter = `${period}${capitalised(metric)}`;
      return {
        name: `${counter}Limit`,
        counter,
        metric,
        period,
        valueType: metric === 'budget' ? 'budget' : 'count',
        maximum: metric === 'budget' ? BUDGET_CAP_MAXIMUM : COUNT_CAP_MAXIMUM,
        permission: permissionOf(metric, period),
        resetName: resetNameOf(period, metric),
      };
    }),
  );
  return {
    caps,
    byName: new Map(caps.map((cap) => [cap.name, cap])),
    byCounter: new Map(caps.map((cap) => [cap.counter, cap])),
  };
};

/** Advertiser, campaign, banner: 20 caps. */
export const DEMAND_GRID = buildGrid(
  ['impressions', 'clicks', 'conversions', 'opportunities', 'budget'],
  demandPermission,
);
/** Site, placement: 16 caps. */
export const SUPPLY_GRID = buildGrid(['requests', 'impressions', 'clicks', 'conversions'], inventoryPermission);
