import type { Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import { metricsNamespace } from './service-metrics';
import type { EnvironmentVariable } from './function-environment';
import type { ServiceQueues } from './queues';
import type { DeliveryLimitsStackProps } from './stack-props';
import { meteringKeyValue } from './usage-keys';
import { partnerLimits } from './usage-plans';

interface EnvironmentSources {
  table: dynamodb.ITable;
  queues: ServiceQueues;
  bus: events.IEventBus;
}

/** This deployment's value of every variable a function may read (`function-environment.ts` says which reads which). */
export const environmentValues = (
  stack: Stack,
  props: DeliveryLimitsStackProps,
  { table, queues, bus }: EnvironmentSources,
): Record<EnvironmentVariable, string | undefined> => {
  const partner = partnerLimits(props);
  return {
    TABLE_NAME: table.tableName,
    RESET_QUEUE_URL: queues.resets.main.queueUrl,
    DELIVERY_DLQ_URL: queues.deliveries.deadLetters.queueUrl,
    HISTORY_DLQ_URL: queues.historyDeadLetters.queueUrl,
    EVENT_BUS_NAME: bus.eventBusName,
    MAIL_FROM: props.mailFrom,
    APP_BASE_URL: props.appBaseUrl,
    DEFAULT_USAGE_KEY: meteringKeyValue(stack, 'default'),
    ANONYMOUS_USAGE_KEY: meteringKeyValue(stack, 'anonymous'),
    METRICS_NAMESPACE: metricsNamespace(props.stageName),
    STAGE: props.stageName,
    POWERTOOLS_TRACE_ENABLED: String(props.tracing),
    CORS_ORIGINS: props.corsOrigins?.length ? props.corsOrigins.join(',') : undefined,
    PARTNER_RATE_LIMIT: String(partner.rateLimit),
    PARTNER_BURST_LIMIT: String(partner.burstLimit),
    PARTNER_QUOTA_PER_DAY: String(partner.quotaPerDay),
    FUTURE_TOLERANCE_SECONDS: String(props.futureToleranceSeconds),
    // automatic sharding of hot advertisers' counters (docs/capacity.md): off unless both are given
    AUTO_SHARD_WRITES_PER_SECOND: stack.node.tryGetContext('autoShardWritesPerSecond')?.toString(),
    AUTO_SHARD_COUNT: stack.node.tryGetContext('autoShardCount')?.toString(),
    WEBHOOK_DELIVERIES_QUEUE_URL: queues.webhookDeliveries.main.queueUrl,
    WEBHOOK_SLOW_LANE_QUEUE_URL: queues.webhookSlowLane.queueUrl,
    WEBHOOK_DELIVERIES_DLQ_URL: queues.webhookDeliveries.deadLetters.queueUrl,
  };
};
