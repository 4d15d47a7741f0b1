import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/** The one table: the local runtime creates it from this, and the CDK stack declares it from this. */
export const TABLE_DEFINITION = {
  partitionKey: 'PK',
  sortKey: 'SK',
  timeToLiveAttribute: 'expiresAt',
  /** Children of a parent entity (campaigns of an advertiser, banners of a campaign, placements of a site). */
  byParentIndex: { indexName: 'byParent', partitionKey: 'parentPK', sortKey: 'PK' },
} as const;

export const DEFAULT_TABLE_NAME = 'delivery-limits';

export const createTableInput = (tableName: string): CreateTableCommandInput => {
  const { partitionKey, sortKey, byParentIndex } = TABLE_DEFINITION;
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: partitionKey, AttributeType: 'S' },
      { AttributeName: sortKey, AttributeType: 'S' },
      { AttributeName: byParentIndex.partitionKey, AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' },
      { AttributeName: sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: byParentIndex.indexName,
        KeySchema: [
          { AttributeName: byParentIndex.partitionKey, KeyType: 'HASH' },
          { AttributeName: byParentIndex.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
  };
};
