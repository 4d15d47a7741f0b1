/** What is counted and over which periods: the two axes of every cap grid. */

export const PERIODS = ['daily', 'weekly', 'monthly', 'total'] as const;
export type Period = (typeof PERIODS)[number];

export const METRICS = ['impressions', 'clicks', 'conversions', 'opportunities', 'budget', 'requests'] as const;
export type Metric = (typeof METRICS)[number];

/** A per-action counter item counts conversions, today and in total. */
export const ACTION_PERIODS: readonly Period[] = ['daily', 'total'];
export const ACTION_METRICS: readonly Metric[] = ['conversions'];
