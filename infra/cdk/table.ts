import type { Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { TABLE_DEFINITION, TABLE_INDEXES } from '../../shared/table/table-definition';
import { warmThroughput } from './capacity';
import type { LoadSettings } from './load-settings';
import { retainedInProduction } from './retention';

/**
 * CloudWatch Contributor Insights on the keys DynamoDB throttles, table and index: which partition is hot when the
 * throttle alarms fire. Throttled keys only: in the mode that also counts every key read or written, each request is
 * a billed event, which at the sized load would cost more than the table.
 */
const THROTTLED_KEYS = { enabled: true, mode: dynamodb.ContributorInsightsMode.THROTTLED_KEYS };

/**
 * The one table as `shared/table/table-definition.ts` lays it out, with its stream and its indexes; warmed for
 * the configured load from the first request where that load needs more than a new table serves, and capped by the
 * cost guard when the operator sets one.
 */
export const buildTable = (
  stack: Stack,
  { production, load, maxRequestUnits }: LoadSettings & { production: boolean },
): dynamodb.Table => {
  const { partitionKey, sortKey, timeToLiveAttribute } = TABLE_DEFINITION;
  const warm = warmThroughput(load);
  const table = new dynamodb.Table(stack, 'Table', {
    partitionKey: { name: partitionKey, type: dynamodb.AttributeType.STRING },
    sortKey: { name: sortKey, type: dynamodb.AttributeType.STRING },
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    timeToLiveAttribute,
    stream: dynamodb.StreamViewType[TABLE_DEFINITION.streamView],
    encryption: dynamodb.TableEncryption.AWS_MANAGED,
    contributorInsightsSpecification: THROTTLED_KEYS,
    deletionProtection: production,
    removalPolicy: retainedInProduction(production),
    ...(warm ? { warmThroughput: warm } : {}),
    ...(maxRequestUnits.read !== undefined ? { maxReadRequestUnits: maxRequestUnits.read } : {}),
    ...(maxRequestUnits.write !== undefined ? { maxWriteRequestUnits: maxRequestUnits.write } : {}),
  });
  for (const index of TABLE_INDEXES)
    table.addGlobalSecondaryIndex({
      indexName: index.indexName,
      partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType[index.projection],
      contributorInsightsSpecification: THROTTLED_KEYS,
    });
  return table;
};
