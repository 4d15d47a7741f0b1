import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { createDynamoDbClient } from '../../../../shared/adapters/dynamodb/dynamodb-client';

/** Answers every request of `client` in process, after the SDK's own middleware has run. */
const answerInProcess = (client: DynamoDBClient, onRequest: (context: Record<string, unknown>) => void = () => {}) =>
  client.middlewareStack.add(
    (_next, context) => async () => {
      onRequest(context as Record<string, unknown>);
      return { output: { $metadata: {}, Item: { PK: { S: 'CAMPAIGN#1' } } }, response: {} } as never;
    },
    { step: 'initialize', priority: 'low', name: 'answerInProcess' },
  );

const getItem = () => new GetItemCommand({ TableName: 't', Key: { PK: { S: 'CAMPAIGN#1' } } });

/** Sends one GetItem answered in process, and tells how often the SDK built a filtered copy for its logger. */
const logCopiesOfOneCall = async (client: DynamoDBClient): Promise<number> => {
  const filter = vi.fn((value: unknown) => value);
  // where the SDK's logging middleware, just outside, takes its filters from once the call has answered
  answerInProcess(client, (context) =>
    Object.assign(context, { inputFilterSensitiveLog: filter, outputFilterSensitiveLog: filter }),
  );
  expect((await client.send(getItem())).Item).toBeDefined();
  return filter.mock.calls.length;
};

const local = { endpoint: 'http://127.0.0.1:1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };

describe('the DynamoDB client', () => {
  it('makes no copies of requests and answers for a logger, where the SDK by default does', async () => {
    expect(await logCopiesOfOneCall(new DynamoDBClient({ region: 'us-east-1', ...local }))).toBeGreaterThan(0);
    expect(await logCopiesOfOneCall(createDynamoDbClient({ endpoint: local.endpoint }))).toBe(0);
  });
});
