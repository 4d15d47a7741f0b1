import { Duration } from 'aws-cdk-lib';
import { anyIn, FIVE_MINUTES, type AddAlarm } from './alarm-conditions';
import type { RunbookSection } from './runbook-sections';
import { serviceMetric } from './service-metrics';

/** What the service's code counts as a failure (`shared/observability/metrics.ts`): any in a period pages. */
const COUNTED_FAILURES: [string, string, Duration, RunbookSection, string][] = [
  ['FlushFailures', 'ResetsFailed', Duration.hours(1), 'flushfailures', 'The hourly flush could not apply resets'],
  [
    'PasswordResetMailFailures',
    'PasswordResetMailFailures',
    FIVE_MINUTES,
    'passwordresetmailfailures',
    'Password-reset mail could not be sent (SES)',
  ],
  [
    'InvalidCounterWrites',
    'InvalidCounterWrites',
    FIVE_MINUTES,
    'invalidcounterwrites',
    'The delivery recorder refused to write a counter it found invalid',
  ],
  [
    'LimitReachedPublishFailures',
    'LimitReachedPublishFailures',
    FIVE_MINUTES,
    'limitreachedpublishfailures',
    'LimitReached events could not be published to EventBridge (they are retried from the stream)',
  ],
];

export const serviceMetricAlarms = (add: AddAlarm, stageName: string): void => {
  for (const [id, metricName, period, section, summary] of COUNTED_FAILURES)
    add(id, serviceMetric(stageName, metricName, period), { section, summary }, anyIn());
};
