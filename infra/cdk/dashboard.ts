import type { Stack } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { FunctionName } from './bundling';
import { serviceMetric } from './service-metrics';

export interface DashboardSources {
  stageName: string;
  api: apigateway.RestApi;
  table: dynamodb.ITable;
  functions: Record<FunctionName, lambda.IFunction>;
  deadLetters: Record<string, sqs.IQueue>;
  alarms: cloudwatch.IAlarm[];
}

/** What the table served, and what it refused for lack of throughput. */
const tableWidget = (table: dynamodb.ITable) =>
  new cloudwatch.GraphWidget({
    title: 'Table: consumed and throttled units',
    left: ['ConsumedWriteCapacityUnits', 'ConsumedReadCapacityUnits'].map((name) =>
      table.metric(name, { statistic: 'Sum' }),
    ),
    right: ['WriteThrottleEvents', 'ReadThrottleEvents'].map((name) => table.metric(name, { statistic: 'Sum' })),
  });

/** One page for the operator: the alarms' states, the API, the functions, and what the service's code counts. */
export const buildDashboard = (stack: Stack, sources: DashboardSources): cloudwatch.Dashboard => {
  const { api, functions, stageName } = sources;
  const counted = (title: string, names: string[]) =>
    new cloudwatch.GraphWidget({ title, left: names.map((name) => serviceMetric(stageName, name)) });
  return new cloudwatch.Dashboard(stack, 'Dashboard', {
    dashboardName: `delivery-limits-${stageName}`,
    widgets: [
      [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: sources.alarms, width: 24 })],
      [
        new cloudwatch.GraphWidget({
          title: 'API requests and errors',
          left: [api.metricCount(), api.metricClientError(), api.metricServerError()],
        }),
        new cloudwatch.GraphWidget({
          title: 'API latency (p50, p99)',
          left: [api.metricLatency({ statistic: 'p50' }), api.metricLatency({ statistic: 'p99' })],
        }),
      ],
      [
        new cloudwatch.GraphWidget({
          title: 'Function errors',
          left: Object.values(functions).map((fn) => fn.metricErrors()),
        }),
        new cloudwatch.GraphWidget({
          title: 'Function duration p99',
          left: Object.values(functions).map((fn) => fn.metricDuration({ statistic: 'p99' })),
        }),
      ],
      [
        counted('Delivery recording', [
          'RecordedEvents',
          'UnknownEntityEvents',
          'DuplicateMessages',
          'DeadLetteredMessages',
          'CounterWrites',
          'NearCapWrites',
        ]),
        counted('Resets', ['ResetsApplied', 'ResetsDropped', 'ResetsFailed']),
      ],
      [tableWidget(sources.table)],
      [
        counted('Authorizer failures (not refusals)', ['AuthorizerFailures']),
        new cloudwatch.GraphWidget({
          title: 'Dead letters waiting',
          left: Object.entries(sources.deadLetters).map(([name, queue]) =>
            queue.metricApproximateNumberOfMessagesVisible({ label: name, statistic: 'Maximum' }),
          ),
        }),
      ],
    ],
  });
};
