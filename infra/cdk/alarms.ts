import type { Stack } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import {
  FAILURE_PERCENT,
  failureRate,
  FIVE_MINUTES,
  MINIMUM_API_REQUESTS,
  TWO_OF_THREE,
  type AddAlarm,
} from './alarm-conditions';
import type { FunctionName } from './bundling';
import { functionErrorAlarms, functionThrottleAlarms } from './function-alarms';
import { operationAlarms } from './operation-alarms';
import { queueAlarms } from './queue-alarms';
import { serviceMetricAlarms } from './service-metric-alarms';
import { tableAlarms } from './table-alarms';

export interface AlarmSources {
  stageName: string;
  /** Where the runbook is read (absolute in production): alarm descriptions link its sections. */
  runbookUrl: string;
  /** Where every alarm goes, as it fires and as it clears (`alarm-topic.ts`, in the data stack). */
  topic: sns.ITopic;
  api: apigateway.RestApi;
  table: dynamodb.ITable;
  functions: Record<FunctionName, lambda.IFunction>;
  /** The API reference's function, alarmed as the API's are. */
  reference: lambda.IFunction;
  /** Every dead-letter queue, by the name its alarm carries. */
  deadLetters: Record<string, sqs.IQueue>;
  deliveries: sqs.IQueue;
  resets: sqs.IQueue;
  webhookEvents: sqs.IQueue;
}

const api5xxAlarm = (add: AddAlarm, api: apigateway.RestApi): void =>
  add(
    'Api5xxRate',
    failureRate(
      api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
      api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' }),
      MINIMUM_API_REQUESTS,
      '5xx rate (%)',
    ),
    {
      section: 'api5xxrate',
      summary: `More than ${FAILURE_PERCENT}% of API requests answered 5xx (at least ${MINIMUM_API_REQUESTS} requests in 5 minutes)`,
    },
    TWO_OF_THREE,
  );

/** An alarm's name: the stage's prefix and the alarm's id, which the runbook names. */
export const alarmName = (stageName: string, id: string): string => `delivery-limits-${stageName}-${id}`;

/**
 * Every alarm, each with a stable name, notifying the alarm topic when it fires and when it clears, and linking
 * its runbook section.
 */
export const buildAlarms = (stack: Stack, sources: AlarmSources): cloudwatch.Alarm[] => {
  const action = new actions.SnsAction(sources.topic);
  const alarms: cloudwatch.Alarm[] = [];
  const add: AddAlarm = (id, metric, { section, summary }, options) => {
    const alarm = metric.createAlarm(stack, id, {
      ...options,
      alarmName: alarmName(sources.stageName, id),
      alarmDescription: `${summary}. Runbook: ${sources.runbookUrl}#${section}`,
    });
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    alarms.push(alarm);
  };
  const { functions, stageName } = sources;
  api5xxAlarm(add, sources.api);
  const alarmed = { ...functions, reference: sources.reference };
  functionErrorAlarms(add, alarmed, stageName);
  functionThrottleAlarms(add, alarmed);
  queueAlarms(add, { ...sources, historyEvents: functions['history-events'] });
  tableAlarms(add, sources.table);
  serviceMetricAlarms(add, stageName);
  operationAlarms(add, stageName);
  return alarms;
};
