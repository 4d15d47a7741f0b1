import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { TABLE_DEFINITION, TABLE_INDEXES } from '../../table/table-definition';

/** The CreateTable request of the one table, as the local runtime sends it; the CDK stack declares the same definition. */
export const createTableInput = (tableName: string): CreateTableCommandInput => {
  const { partitionKey, sortKey, streamView } = TABLE_DEFINITION;
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamEnabled: true, StreamViewType: streamView },
    AttributeDefinitions: [
      { AttributeName: partitionKey, AttributeType: 'S' },
      { AttributeName: sortKey, AttributeType: 'S' },
      ...TABLE_INDEXES.map((index) => ({ AttributeName: index.partitionKey, AttributeType: 'S' as const })),
    ],
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' },
      { AttributeName: sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: TABLE_INDEXES.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: index.projection },
    })),
  };
};
