/** What is counted and over which periods: the two axes of every cap grid. */

export const PERIODS = ['daily', 'weekly', 'monthly', 'total'] as const;
export type Period = (typeof PERIODS)[number];

export const METRICS = ['impressions', 'clicks', 'conversions', 'opportunities', 'budget', 'requests'] as const;
export type Metric = (typeof METRICS)[number];

/** Attribute that holds a metric's count in a stored counter: budget is counted as revenue. */
export const COUNTER_ATTRIBUTE: Record<Metric, string> = {
  impressions: 'impressions',
  clicks: 'clicks',
  conversions: 'conversions',
  opportunities: 'opportunities',
  budget: 'revenue',
  requests: 'requests',
};
