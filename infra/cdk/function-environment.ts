import type { FunctionName } from './bundling';

/** The variables the stack can give a function, each read by some function's code. */
export type EnvironmentVariable =
  | 'TABLE_NAME'
  | 'RESET_QUEUE_URL'
  | 'DELIVERY_DLQ_URL'
  | 'HISTORY_DLQ_URL'
  | 'EVENT_BUS_NAME'
  | 'MAIL_FROM'
  | 'APP_BASE_URL'
  | 'DEFAULT_USAGE_KEY'
  | 'ANONYMOUS_USAGE_KEY'
  | 'METRICS_NAMESPACE'
  | 'STAGE'
  | 'POWERTOOLS_TRACE_ENABLED'
  | 'CORS_ORIGINS'
  | 'PARTNER_RATE_LIMIT'
  | 'PARTNER_BURST_LIMIT'
  | 'PARTNER_QUOTA_PER_DAY'
  | 'FUTURE_TOLERANCE_SECONDS'
  | 'AUTO_SHARD_WRITES_PER_SECOND'
  | 'AUTO_SHARD_COUNT'
  | 'WEBHOOK_DELIVERIES_QUEUE_URL'
  | 'WEBHOOK_SLOW_LANE_QUEUE_URL'
  | 'WEBHOOK_DELIVERIES_DLQ_URL';

/** Powertools Metrics: the namespace and the `stage` dimension (`shared/observability/metrics.ts`). */
const METRICS: EnvironmentVariable[] = ['METRICS_NAMESPACE', 'STAGE'];
/** The quota the family handler keeps for a partner signing in the form body (`shared/auth/partner-meter.ts`). */
const PARTNER_PLAN: EnvironmentVariable[] = ['PARTNER_RATE_LIMIT', 'PARTNER_BURST_LIMIT', 'PARTNER_QUOTA_PER_DAY'];
/**
 * What every API family reads besides its own ports: metrics, tracing, CORS and the partner plan
 * (`shared/pipeline/family-handler.ts`).
 */
const API_FAMILY: EnvironmentVariable[] = [
  'TABLE_NAME',
  ...METRICS,
  'POWERTOOLS_TRACE_ENABLED',
  'CORS_ORIGINS',
  ...PARTNER_PLAN,
];

/**
 * Exactly the variables each function's code reads: a function gets nothing else (the usage keys' values stay in
 * the authorizer). A template test builds every bundle and checks these lists against what it reads.
 */
export const FUNCTION_ENVIRONMENT: Readonly<Record<FunctionName, readonly EnvironmentVariable[]>> = {
  authorizer: ['TABLE_NAME', ...METRICS, 'DEFAULT_USAGE_KEY', 'ANONYMOUS_USAGE_KEY'],
  auth: [...API_FAMILY, 'MAIL_FROM', 'APP_BASE_URL'],
  'demand-limits': [...API_FAMILY, 'RESET_QUEUE_URL'],
  'supply-limits': [...API_FAMILY, 'RESET_QUEUE_URL'],
  'per-action': API_FAMILY,
  webhooks: API_FAMILY,
  'delivery-recorder': [
    'TABLE_NAME',
    ...METRICS,
    'DELIVERY_DLQ_URL',
    'FUTURE_TOLERANCE_SECONDS',
    'AUTO_SHARD_WRITES_PER_SECOND',
    'AUTO_SHARD_COUNT',
  ],
  'reset-flush': ['TABLE_NAME', ...METRICS, 'RESET_QUEUE_URL'],
  'history-events': ['TABLE_NAME', 'EVENT_BUS_NAME', 'HISTORY_DLQ_URL', ...METRICS],
  'webhook-dispatcher': [
    'TABLE_NAME',
    ...METRICS,
    'WEBHOOK_DELIVERIES_QUEUE_URL',
    'WEBHOOK_SLOW_LANE_QUEUE_URL',
    'WEBHOOK_DELIVERIES_DLQ_URL',
  ],
};

/** A function's environment: its variables that have a value in this deployment (CORS_ORIGINS may have none). */
export const environmentOf = (
  name: FunctionName,
  values: Partial<Record<EnvironmentVariable, string>>,
): Record<string, string> =>
  Object.fromEntries(
    FUNCTION_ENVIRONMENT[name].flatMap((variable) =>
      values[variable] !== undefined ? [[variable, values[variable]]] : [],
    ),
  );
