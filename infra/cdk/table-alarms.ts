import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { TABLE_DEFINITION } from '../../shared/table/table-definition';
import { anyIn, FIVE_MINUTES, type AddAlarm } from './alarm-conditions';
import type { RunbookSection } from './runbook-sections';

/** What DynamoDB refused for lack of throughput, on the table and its indexes, in five minutes. */
const throttled = (table: dynamodb.ITable, metricName: string): cloudwatch.MathExpression => {
  const dimensions = { TableName: table.tableName };
  const metric = (dimensionsMap: Record<string, string>) =>
    new cloudwatch.Metric({
      namespace: 'AWS/DynamoDB',
      metricName,
      dimensionsMap,
      statistic: 'Sum',
      period: FIVE_MINUTES,
    });
  return new cloudwatch.MathExpression({
    // DynamoDB writes a throttle metric only when something was throttled
    expression: 'FILL(table, 0) + FILL(byParent, 0) + FILL(byUpdateShare, 0)',
    usingMetrics: {
      table: metric(dimensions),
      byParent: metric({ ...dimensions, GlobalSecondaryIndexName: TABLE_DEFINITION.byParentIndex.indexName }),
      byUpdateShare: metric({ ...dimensions, GlobalSecondaryIndexName: TABLE_DEFINITION.byUpdateShareIndex.indexName }),
    },
    label: `${metricName} (table and indexes)`,
    period: FIVE_MINUTES,
  });
};

const THROTTLES: [string, string, RunbookSection, string][] = [
  ['TableWriteThrottles', 'WriteThrottleEvents', 'tablewritethrottles', 'DynamoDB throttled writes'],
  ['TableReadThrottles', 'ReadThrottleEvents', 'tablereadthrottles', 'DynamoDB throttled reads'],
];

/**
 * Writes or reads the table refused, in two five-minute periods in a row: a hot partition (a counter item written
 * faster than its partition takes, the first step of sharding it) or the table's cost guard. The SDK retries a
 * throttled request, so one burst is no alarm; throttling that lasts delays counting and answers 503.
 */
export const tableAlarms = (add: AddAlarm, table: dynamodb.ITable): void => {
  for (const [id, metricName, section, summary] of THROTTLES)
    add(
      id,
      throttled(table, metricName),
      { section, summary: `${summary} in 2 five-minute periods in a row` },
      anyIn(2),
    );
};
