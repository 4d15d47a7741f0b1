import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { createTableInput } from '../../shared/adapters/dynamodb/create-table-input';

/** Creates the table from the shared definition unless it exists (a persisted local data directory keeps it). */
export const ensureTable = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await client.send(new CreateTableCommand(createTableInput(tableName)));
};
