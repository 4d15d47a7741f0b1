import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { TABLE_DEFINITION } from '../../table/table-definition';

/** The CreateTable request of the one table, as the local runtime sends it; the CDK stack declares the same definition. */
export const createTableInput = (tableName: string): CreateTableCommandInput => {
  const { partitionKey, sortKey, byParentIndex, byUpdateShareIndex, streamView } = TABLE_DEFINITION;
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamEnabled: true, StreamViewType: streamView },
    AttributeDefinitions: [
      { AttributeName: partitionKey, AttributeType: 'S' },
      { AttributeName: sortKey, AttributeType: 'S' },
      { AttributeName: byParentIndex.partitionKey, AttributeType: 'S' },
      { AttributeName: byUpdateShareIndex.partitionKey, AttributeType: 'S' },
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
      {
        IndexName: byUpdateShareIndex.indexName,
        KeySchema: [
          { AttributeName: byUpdateShareIndex.partitionKey, KeyType: 'HASH' },
          { AttributeName: byUpdateShareIndex.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ],
  };
};
