import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { RunbookSection } from './runbook-sections';

/** What an alarm's description says: a one-line summary and the runbook section it links. */
export interface AlarmDescription {
  section: RunbookSection;
  summary: string;
}

/** Adds one alarm to the stack: its description links the runbook section, its action notifies the alarm topic. */
export type AddAlarm = (
  id: string,
  metric: cloudwatch.Metric | cloudwatch.MathExpression,
  description: AlarmDescription,
  options: Omit<cloudwatch.CreateAlarmOptions, 'alarmDescription'>,
) => void;

export const FIVE_MINUTES = Duration.minutes(5);

/**
 * Numbers of the rate alarms: under these request counts in five minutes a rate says nothing (one 5xx among
 * three requests at night is 33 %), so it reads as 0; above them, two bad periods of three page.
 */
export const MINIMUM_API_REQUESTS = 100;
export const MINIMUM_INVOCATIONS = 20;
export const FAILURE_PERCENT = 1;

/** Failures as a percentage of the total, 0 while the total is under the minimum. */
export const failureRate = (
  failures: cloudwatch.IMetric,
  total: cloudwatch.IMetric,
  minimum: number,
  label: string,
): cloudwatch.MathExpression =>
  new cloudwatch.MathExpression({
    expression: `IF(total >= ${minimum}, 100 * failures / total, 0)`,
    usingMetrics: { failures, total },
    label,
    period: FIVE_MINUTES,
  });

/** A rate over FAILURE_PERCENT in two periods of three. */
export const TWO_OF_THREE = {
  threshold: FAILURE_PERCENT,
  evaluationPeriods: 3,
  datapointsToAlarm: 2,
  comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
  treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
};

/** Anything counted, in each of the evaluation periods. */
export const anyIn = (evaluationPeriods = 1) => ({
  threshold: 1,
  evaluationPeriods,
  comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
  treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
});
