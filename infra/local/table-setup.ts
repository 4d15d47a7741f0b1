import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  type DynamoDBClient,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { createTableInput } from '../../shared/adapters/dynamodb/create-table-input';

const describe = async (client: DynamoDBClient, tableName: string): Promise<TableDescription | undefined> => {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    return undefined;
  }
};

/**
 * Creates the table from the shared definition unless it exists (a persisted local data directory keeps it), turns
 * its stream on if a table from before streams lacks it, and answers the stream's ARN.
 */
export const ensureTable = async (client: DynamoDBClient, tableName: string): Promise<string> => {
  const input = createTableInput(tableName);
  const existing = await describe(client, tableName);
  if (!existing) return (await client.send(new CreateTableCommand(input))).TableDescription!.LatestStreamArn!;
  if (existing.StreamSpecification?.StreamEnabled) return existing.LatestStreamArn!;
  await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: input.StreamSpecification }));
  return (await describe(client, tableName))!.LatestStreamArn!;
};
