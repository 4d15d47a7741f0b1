import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { routeName } from '../../shared/api/route-name';
import { ROUTES } from '../../shared/api/route-table';
import { FIVE_MINUTES, type AddAlarm } from './alarm-conditions';
import { serviceMetric } from './service-metrics';

/** The metric the family pipeline writes for each failed answer, by route (`shared/pipeline/operation-failures.ts`). */
export const OPERATION_FAILURES = 'OperationFailures';

/** Failures in three of the last six five-minute periods: an operation failing call after call, not one bad minute. */
export const REPEATEDLY = {
  threshold: 1,
  evaluationPeriods: 6,
  datapointsToAlarm: 3,
  comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
  treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
};

/** The alarm of each route: `<route name>Failures`, whatever the API-wide 5xx rate does. */
export const operationAlarmId = (route: (typeof ROUTES)[number]): string => `${routeName(route)}Failures`;

/** One alarm per route of the route table, on its own failures: a DELETE refused by IAM on every call pages. */
export const operationAlarms = (add: AddAlarm, stageName: string): void => {
  for (const route of ROUTES) {
    add(
      operationAlarmId(route),
      serviceMetric(stageName, OPERATION_FAILURES, FIVE_MINUTES, { operation: routeName(route) }),
      {
        section: 'operationfailures',
        summary: `${route.method} ${route.path} failed (5xx) in 3 of the last six 5-minute periods`,
      },
      REPEATEDLY,
    );
  }
};
