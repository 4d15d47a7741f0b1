import { randomUUID } from 'node:crypto';
import { CreateTableCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { ACCESS_KEY_ONLY } from '../../infra/local/access-key-auth';
import { createDynamoDbClient } from '../../shared/adapters/dynamodb/dynamodb-client';

const client = (accessKeyId: string, signed: boolean) => {
  const made = createDynamoDbClient({
    endpoint: inject('dynamoEndpoint'),
    accessKeyId,
    ...(signed ? {} : ACCESS_KEY_ONLY),
  });
  const headers: Record<string, string>[] = [];
  made.middlewareStack.add(
    (next) => async (args) => {
      headers.push({ ...(args.request as { headers: Record<string, string> }).headers });
      return next(args);
    },
    { step: 'finalizeRequest', name: 'headers', priority: 'low' },
  );
  return { made, headers };
};

const tablesOf = async ({ made }: ReturnType<typeof client>) =>
  (await made.send(new ListTablesCommand({}))).TableNames ?? [];

describe('requests that name their access key without a signature', () => {
  it("reach the key's own database on DynamoDB Local, as signed requests with that key do", async () => {
    const key = `auth${randomUUID().replaceAll('-', '')}`;
    const unsigned = client(key, false);
    const signed = client(key, true);
    const other = client(`${key}x`, false);
    const table = `table-${randomUUID()}`;
    await unsigned.made.send(
      new CreateTableCommand({
        TableName: table,
        KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    expect(await tablesOf(signed)).toEqual([table]);
    expect(await tablesOf(unsigned)).toEqual([table]);
    expect(await tablesOf(other)).toEqual([]);
    expect(unsigned.headers[0]?.authorization).toContain(`Credential=${key}/`);
    expect(unsigned.headers[0]?.authorization).not.toMatch(/Signature=[0-9a-f]{64}/);
    expect(signed.headers[0]?.authorization).toMatch(/Signature=[0-9a-f]{64}/);
  });
});
