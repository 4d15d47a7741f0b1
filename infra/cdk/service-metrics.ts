import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { METRICS_SERVICE } from '../../shared/observability/metrics';

/** Metrics of each stage apart, so that a development failure never trips production's alarms. */
export const metricsNamespace = (stageName: string): string => `DeliveryLimits/${stageName}`;

/** A metric the service's code emits (`shared/observability/metrics.ts`): the stage namespace, the service and stage dimensions. */
export const serviceMetric = (
  stageName: string,
  metricName: string,
  period = Duration.minutes(5),
  /** Dimensions beyond service and stage (the route of `OperationFailures`). */
  dimensions: Record<string, string> = {},
) =>
  new cloudwatch.Metric({
    namespace: metricsNamespace(stageName),
    metricName,
    statistic: 'Sum',
    period,
    dimensionsMap: { service: METRICS_SERVICE, stage: stageName, ...dimensions },
  });
