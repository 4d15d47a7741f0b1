import { Duration, type Stack } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { METRICS_SERVICE } from '../../shared/observability/metrics';
import type { FunctionName } from './bundling';

/** Metrics of each stage apart, so that a development failure never trips production's alarms. */
export const metricsNamespace = (stageName: string): string => `DeliveryLimits/${stageName}`;

/**
 * A metric the service's code emits (`shared/observability/metrics.ts`): the stage namespace, the service and stage
 * dimensions.
 */
export const serviceMetric = (stageName: string, metricName: string, period = Duration.minutes(5)) =>
  new cloudwatch.Metric({
    namespace: metricsNamespace(stageName),
    metricName,
    statistic: 'Sum',
    period,
    dimensionsMap: { service: METRICS_SERVICE, stage: stageName },
  });

/**
 * Numbers of the rate alarms: under these request counts in five minutes a rate says nothing (one 5xx among
 * three requests at night is 33 %), so it reads as 0; above them, two bad periods of three page.
 */
export const MINIMUM_API_REQUESTS = 100;
export const MINIMUM_INVOCATIONS = 20;
export const FAILURE_PERCENT = 1;

/** The runbook section (`docs/operations.md`) of each kind of alarm: its heading, as GitHub anchors it. */
export const RUNBOOK_SECTIONS = [
  'api5xxrate',
  'authorizerfailures',
  'functionerrors',
  'backgroundfunctionerrors',
  'functionthrottles',
  'deadletterarrivals',
  'deliveryeventsage',
  'queuedresetsage',
  'historyeventsage',
  'flushfailures',
  'passwordresetmailfailures',
  'invalidcounterwrites',
  'limitreachedpublishfailures',
] as const;
export type RunbookSection = (typeof RUNBOOK_SECTIONS)[number];

export interface AlarmSources {
  stageName: string;
  /** Where the runbook is read: alarm descriptions link its sections. */
  runbookUrl: string;
  alarmEmail?: string;
  alarmTopicArn?: string;
  api: apigateway.RestApi;
  functions: Record<FunctionName, lambda.IFunction>;
  /** Every dead-letter queue, by the name its alarm carries. */
  deadLetters: Record<string, sqs.IQueue>;
  deliveries: sqs.IQueue;
  resets: sqs.IQueue;
}

/** Functions that answer API requests: their failures are rates over enough invocations. */
const API_FUNCTIONS: FunctionName[] = ['authorizer', 'auth', 'demand-limits', 'supply-limits', 'per-action'];

/**
 * The alarm topic: its policy enforces SSL and lets CloudWatch (of this account only) publish; an existing
 * `alarmTopicArn` keeps the policy its owner gave it.
 */
const alarmTopic = (stack: Stack, sources: AlarmSources): sns.ITopic => {
  if (sources.alarmTopicArn) return sns.Topic.fromTopicArn(stack, 'Alarms', sources.alarmTopicArn);
  const topic = new sns.Topic(stack, 'Alarms', { enforceSSL: true });
  topic.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: 'CloudWatchAlarmsPublish',
      principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
    }),
  );
  if (sources.alarmEmail) topic.addSubscription(new subscriptions.EmailSubscription(sources.alarmEmail));
  return topic;
};

export const buildAlarms = (stack: Stack, sources: AlarmSources): cloudwatch.Alarm[] => {
  const topic = alarmTopic(stack, sources);
  const fiveMinutes = Duration.minutes(5);
  const alarms: cloudwatch.Alarm[] = [];
  const add = (
    id: string,
    metric: cloudwatch.Metric | cloudwatch.MathExpression,
    section: RunbookSection,
    summary: string,
    options: Omit<cloudwatch.CreateAlarmOptions, 'alarmDescription'>,
  ) => {
    const alarm = metric.createAlarm(stack, id, {
      ...options,
      alarmDescription: `${summary}. Runbook: ${sources.runbookUrl}#${section}`,
    });
    alarm.addAlarmAction(new actions.SnsAction(topic));
    alarms.push(alarm);
  };
  const rate = (failures: cloudwatch.IMetric, total: cloudwatch.IMetric, minimum: number, label: string) =>
    new cloudwatch.MathExpression({
      expression: `IF(total >= ${minimum}, 100 * failures / total, 0)`,
      usingMetrics: { failures, total },
      label,
      period: fiveMinutes,
    });
  const twoOfThree = {
    threshold: FAILURE_PERCENT,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  };
  const anyIn = (evaluationPeriods = 1) => ({
    threshold: 1,
    evaluationPeriods,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
  const { api, functions, stageName } = sources;

  add(
    'Api5xxRate',
    rate(
      api.metricServerError({ period: fiveMinutes, statistic: 'Sum' }),
      api.metricCount({ period: fiveMinutes, statistic: 'Sum' }),
      MINIMUM_API_REQUESTS,
      '5xx rate (%)',
    ),
    'api5xxrate',
    `More than ${FAILURE_PERCENT}% of API requests answered 5xx (at least ${MINIMUM_API_REQUESTS} requests in 5 minutes)`,
    twoOfThree,
  );
  for (const name of API_FUNCTIONS) {
    const invocations = functions[name].metricInvocations({ period: fiveMinutes, statistic: 'Sum' });
    // the authorizer refuses a bad credential by failing, which Lambda counts as an error: its own metric
    // counts only what is an outage (a throttled table, a bug), never a caller's typo
    const failures =
      name === 'authorizer'
        ? serviceMetric(stageName, 'AuthorizerFailures', fiveMinutes)
        : functions[name].metricErrors({ period: fiveMinutes, statistic: 'Sum' });
    add(
      `${name}Errors`,
      rate(failures, invocations, MINIMUM_INVOCATIONS, `${name} failure rate (%)`),
      name === 'authorizer' ? 'authorizerfailures' : 'functionerrors',
      `${name} failed on more than ${FAILURE_PERCENT}% of at least ${MINIMUM_INVOCATIONS} invocations in 5 minutes`,
      twoOfThree,
    );
  }
  // retried by their sources: one error is noise, errors in every period are an outage
  const background: [FunctionName, Duration, number][] = [
    ['delivery-recorder', fiveMinutes, 3],
    ['history-events', fiveMinutes, 3],
    ['reset-flush', Duration.hours(1), 2],
  ];
  for (const [name, period, periods] of background)
    add(
      `${name}Errors`,
      functions[name].metricErrors({ period, statistic: 'Sum' }),
      'backgroundfunctionerrors',
      `${name} failed in each of ${periods} periods of ${period.toHumanString()}`,
      anyIn(periods),
    );
  for (const [name, fn] of Object.entries(functions)) {
    const throttles = fn.metricThrottles({ period: fiveMinutes, statistic: 'Sum' });
    const attempts = new cloudwatch.MathExpression({
      expression: 'invocations + throttles',
      usingMetrics: { invocations: fn.metricInvocations({ period: fiveMinutes, statistic: 'Sum' }), throttles },
      period: fiveMinutes,
    });
    add(
      `${name}Throttles`,
      rate(throttles, attempts, MINIMUM_INVOCATIONS, `${name} throttle rate (%)`),
      'functionthrottles',
      `More than ${FAILURE_PERCENT}% of ${name}'s invocations were throttled`,
      twoOfThree,
    );
  }
  for (const [name, queue] of Object.entries(sources.deadLetters))
    add(
      `${name}Arrivals`,
      deadLetterArrivals(queue),
      'deadletterarrivals',
      `New messages arrived in the dead-letter queue ${name}`,
      { ...anyIn(2), datapointsToAlarm: 1 },
    );
  const oldest: [string, sqs.IQueue, number, RunbookSection, string][] = [
    ['DeliveryEventsAge', sources.deliveries, 300, 'deliveryeventsage', 'Delivery events wait more than 5 minutes'],
    ['QueuedResetsAge', sources.resets, 4500, 'queuedresetsage', 'A reset waits more than 75 minutes'],
  ];
  for (const [id, queue, seconds, section, summary] of oldest)
    add(
      id,
      queue.metricApproximateAgeOfOldestMessage({ period: fiveMinutes, statistic: 'Maximum' }),
      section,
      summary,
      { threshold: seconds, evaluationPeriods: 2 },
    );
  add(
    'HistoryEventsAge',
    functions['history-events'].metric('IteratorAge', { period: fiveMinutes, statistic: 'Maximum' }),
    'historyeventsage',
    'LimitChanged events lag the change history by more than 5 minutes',
    { threshold: 300_000, evaluationPeriods: 2 },
  );
  const counted: [string, string, Duration, RunbookSection, string][] = [
    ['FlushFailures', 'ResetsFailed', Duration.hours(1), 'flushfailures', 'The hourly flush could not apply resets'],
    [
      'PasswordResetMailFailures',
      'PasswordResetMailFailures',
      fiveMinutes,
      'passwordresetmailfailures',
      'Password-reset mail could not be sent (SES)',
    ],
    [
      'InvalidCounterWrites',
      'InvalidCounterWrites',
      fiveMinutes,
      'invalidcounterwrites',
      'The delivery recorder refused to write a counter it found invalid',
    ],
    [
      'LimitReachedPublishFailures',
      'LimitReachedPublishFailures',
      fiveMinutes,
      'limitreachedpublishfailures',
      'LimitReached events could not be published to EventBridge (they are retried from the stream)',
    ],
  ];
  for (const [id, metricName, period, section, summary] of counted)
    add(id, serviceMetric(stageName, metricName, period), section, summary, anyIn());
  return alarms;
};

/**
 * Messages new in a dead-letter queue in five minutes: those sent to it (the recorder's own dead letters, Lambda's
 * on-failure records) and those SQS moved there by redrive, which `NumberOfMessagesSent` does not count, seen as a
 * rise of the visible messages (an idle queue's missing points read as 0). It falls back to 0 once nothing new
 * comes, so the alarm returns to OK with messages still waiting, and the next incident pages again.
 */
export const deadLetterArrivals = (queue: sqs.IQueue): cloudwatch.MathExpression =>
  new cloudwatch.MathExpression({
    expression: 'MAX([sent, DIFF(FILL(visible, 0))])',
    usingMetrics: {
      sent: queue.metricNumberOfMessagesSent({ period: Duration.minutes(5), statistic: 'Sum' }),
      visible: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
    },
    label: 'new dead letters',
    period: Duration.minutes(5),
  });
