import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/** The `service` dimension of every metric. */
export const METRICS_SERVICE = 'delivery-limits';

/**
 * CloudWatch metrics through Powertools for AWS Lambda, in the Embedded Metric Format: one JSON log line, no API
 * call, in the stage's namespace with the stage and the service as dimensions (as the stack's alarms read them).
 * Only inside Lambda, where CloudWatch reads them; on a laptop they would be noise.
 */
export const metrics = new Metrics({
  namespace: process.env.METRICS_NAMESPACE ?? 'DeliveryLimits',
  serviceName: METRICS_SERVICE,
  defaultDimensions: { stage: process.env.STAGE ?? 'local' },
});

export const emitMetrics = (values: Record<string, number>, now: Date): void => {
  if (!process.env.AWS_LAMBDA_FUNCTION_NAME || process.env.LOG_LEVEL === 'silent') return;
  metrics.setTimestamp(now);
  for (const [name, value] of Object.entries(values)) metrics.addMetric(name, MetricUnit.Count, value);
  metrics.publishStoredMetrics();
};

/** The `subscription` dimension of the webhook metrics: one series per subscription, besides the service's. */
export const emitSubscriptionMetrics = (subscriptionId: string, values: Record<string, number>, now: Date): void => {
  if (!process.env.AWS_LAMBDA_FUNCTION_NAME || process.env.LOG_LEVEL === 'silent') return;
  for (const [name, value] of Object.entries(values)) {
    // a single metric is written as soon as it is added, with its own dimensions
    const single = metrics.singleMetric();
    single.setTimestamp(now);
    single.addDimension('subscription', subscriptionId);
    single.addMetric(name, MetricUnit.Count, value);
  }
};
