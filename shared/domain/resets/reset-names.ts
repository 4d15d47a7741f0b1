/** The 29 reset counter names of the spec: their formula, their parsing and what each group stands for. */
import { METRICS, PERIODS, type Metric, type Period } from '../limits/cap-axes';

/** What a metric's counter is called in reset names: the grid's budget is REVENUE. */
const RESET_WORD: Record<Metric, string> = {
  impressions: 'IMPRESSIONS',
  clicks: 'CLICKS',
  conversions: 'CONVERSIONS',
  opportunities: 'OPPORTUNITIES',
  budget: 'REVENUE',
  requests: 'REQUESTS',
};

const NO_CONVERSION_RESETS = ['NO_CONVERSIONS_HOURS', 'NO_CONVERSIONS_IMPRESSIONS'] as const;
const GROUP_RESETS = ['ALL_LIMITS', 'ALL_ACTION_LIMITS', 'ALL'] as const;

/** `DAILY_IMPRESSIONS`, `TOTAL_REVENUE` …: the one formula of a period counter's reset name. */
export const resetNameOf = (period: Period, metric: Metric): string => `${period.toUpperCase()}_${RESET_WORD[metric]}`;

/** The 24 period counter names: `DAILY_IMPRESSIONS` … `TOTAL_REQUESTS`. */
const COUNTER_RESETS: readonly string[] = PERIODS.flatMap((period) =>
  METRICS.map((metric) => resetNameOf(period, metric)),
);

/** All 29 accepted names, case-sensitive. */
export const RESET_NAMES: ReadonlySet<string> = new Set([...COUNTER_RESETS, ...NO_CONVERSION_RESETS, ...GROUP_RESETS]);

const COUNTER_OF_NAME: ReadonlyMap<string, { period: Period; metric: Metric }> = new Map(
  PERIODS.flatMap((period) => METRICS.map((metric) => [resetNameOf(period, metric), { period, metric }] as const)),
);

/** `DAILY_IMPRESSIONS` → daily impressions; undefined for a group or no-conversion name. */
const counterOfResetName = (name: string): { period: Period; metric: Metric } | undefined => COUNTER_OF_NAME.get(name);

/** What a reset list covers once its groups are expanded: ALL is ALL_LIMITS and ALL_ACTION_LIMITS. */
export interface ResetScope {
  /** Period counters named one by one. */
  counters: { period: Period; metric: Metric }[];
  /** ALL_LIMITS or ALL: every delivery counter. */
  allDeliveryCounters: boolean;
  /** ALL_ACTION_LIMITS or ALL: every per-action counter. */
  allActionCounters: boolean;
  noConversionHours: boolean;
  noConversionImpressions: boolean;
}

export const resetScope = (names: readonly string[]): ResetScope => ({
  counters: names.flatMap((name) => counterOfResetName(name) ?? []),
  allDeliveryCounters: names.includes('ALL_LIMITS') || names.includes('ALL'),
  allActionCounters: names.includes('ALL_ACTION_LIMITS') || names.includes('ALL'),
  noConversionHours: names.includes('NO_CONVERSIONS_HOURS'),
  noConversionImpressions: names.includes('NO_CONVERSIONS_IMPRESSIONS'),
});
