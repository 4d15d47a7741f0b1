import { METRICS, PERIODS, RESET_WORD } from '../limits/cap-grid';

export const NO_CONVERSION_RESETS = ['NO_CONVERSIONS_HOURS', 'NO_CONVERSIONS_IMPRESSIONS'] as const;
export const GROUP_RESETS = ['ALL_LIMITS', 'ALL_ACTION_LIMITS', 'ALL'] as const;

/** The 24 period counter names: `TOTAL_IMPRESSIONS` … `MONTHLY_REQUESTS`. */
export const COUNTER_RESETS: readonly string[] = PERIODS.flatMap((period) => METRICS.map((metric) => `${period.toUpperCase()}_${RESET_WORD[metric]}`));

/** All 29 accepted names, case-sensitive. */
export const RESET_NAMES: ReadonlySet<string> = new Set([...COUNTER_RESETS, ...NO_CONVERSION_RESETS, ...GROUP_RESETS]);
