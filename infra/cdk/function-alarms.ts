import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import {
  anyIn,
  FAILURE_PERCENT,
  failureRate,
  FIVE_MINUTES,
  MINIMUM_INVOCATIONS,
  TWO_OF_THREE,
  type AddAlarm,
} from './alarm-conditions';
import { serviceMetric } from './service-metrics';
import type { FunctionName } from './bundling';

/** Every function of the stack: those of `bundling.ts` and the API reference's. */
export type AlarmedFunctions = Record<FunctionName | 'reference', lambda.IFunction>;

/** Functions that answer API requests: their failures are rates over enough invocations. */
const API_FUNCTIONS: (keyof AlarmedFunctions)[] = [
  'authorizer',
  'auth',
  'demand-limits',
  'supply-limits',
  'per-action',
  'webhooks',
  'reference',
];

/** Functions whose sources retry them: one error is noise, errors in every period are an outage. */
const BACKGROUND: [FunctionName, Duration, number][] = [
  ['delivery-recorder', FIVE_MINUTES, 3],
  ['history-events', FIVE_MINUTES, 3],
  // a failed delivery is a batch item failure, not an error: errors are the dispatcher's own (the table, SQS)
  ['webhook-dispatcher', FIVE_MINUTES, 3],
  ['reset-flush', Duration.hours(1), 2],
];

export const functionErrorAlarms = (add: AddAlarm, functions: AlarmedFunctions, stageName: string): void => {
  for (const name of API_FUNCTIONS) {
    const invocations = functions[name].metricInvocations({ period: FIVE_MINUTES, statistic: 'Sum' });
    // the authorizer refuses a bad credential by failing, which Lambda counts as an error: its own metric
    // counts only what is an outage (a throttled table, a bug), never a caller's typo
    const failures =
      name === 'authorizer'
        ? serviceMetric(stageName, 'AuthorizerFailures', FIVE_MINUTES)
        : functions[name].metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' });
    add(
      `${name}Errors`,
      failureRate(failures, invocations, MINIMUM_INVOCATIONS, `${name} failure rate (%)`),
      {
        section: name === 'authorizer' ? 'authorizerfailures' : 'functionerrors',
        summary: `${name} failed on more than ${FAILURE_PERCENT}% of at least ${MINIMUM_INVOCATIONS} invocations in 5 minutes`,
      },
      TWO_OF_THREE,
    );
  }
  for (const [name, period, periods] of BACKGROUND)
    add(
      `${name}Errors`,
      functions[name].metricErrors({ period, statistic: 'Sum' }),
      {
        section: 'backgroundfunctionerrors',
        summary: `${name} failed in each of ${periods} periods of ${period.toHumanString()}`,
      },
      anyIn(periods),
    );
};

export const functionThrottleAlarms = (add: AddAlarm, functions: AlarmedFunctions): void => {
  for (const [name, fn] of Object.entries(functions)) {
    const throttles = fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' });
    const attempts = new cloudwatch.MathExpression({
      expression: 'invocations + throttles',
      usingMetrics: { invocations: fn.metricInvocations({ period: FIVE_MINUTES, statistic: 'Sum' }), throttles },
      period: FIVE_MINUTES,
    });
    add(
      `${name}Throttles`,
      failureRate(throttles, attempts, MINIMUM_INVOCATIONS, `${name} throttle rate (%)`),
      {
        section: 'functionthrottles',
        summary: `More than ${FAILURE_PERCENT}% of ${name}'s invocations were throttled`,
      },
      TWO_OF_THREE,
    );
  }
};
