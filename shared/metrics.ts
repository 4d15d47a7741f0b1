/**
 * CloudWatch metrics through the Embedded Metric Format: one JSON log line, no API call. Only inside Lambda,
 * where CloudWatch reads them; on a laptop they would be noise.
 */
export const emitMetrics = (metrics: Record<string, number>, now: Date): void => {
  if (!process.env.AWS_LAMBDA_FUNCTION_NAME || process.env.LOG_LEVEL === 'silent') return;
  const line = {
    _aws: {
      Timestamp: now.getTime(),
      CloudWatchMetrics: [
        {
          // per stage, as the stack's alarms read them
          Namespace: process.env.METRICS_NAMESPACE ?? 'DeliveryLimits',
          Dimensions: [[]],
          Metrics: Object.keys(metrics).map((Name) => ({ Name, Unit: 'Count' })),
        },
      ],
    },
    ...metrics,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
};
