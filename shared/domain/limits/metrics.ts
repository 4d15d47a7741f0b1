/** What is counted and over which periods: the two axes of every cap grid. */

export const PERIODS = ['daily', 'weekly', 'monthly', 'total'] as const;
export type Period = (typeof PERIODS)[number];

export const METRICS = ['impressions', 'clicks', 'conversions', 'opportunities', 'budget', 'requests'] as const;
export type Metric = (typeof METRICS)[number];
