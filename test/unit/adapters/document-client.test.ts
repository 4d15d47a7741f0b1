import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { createDocumentClient, createDynamoDbClient } from '../../../shared/adapters/dynamodb/document-client';

/** Sends one GetItem answered in process, and tells how often the SDK built a filtered copy for its logger. */
const logCopiesOfOneCall = async (client: DynamoDBClient): Promise<number> => {
  const filter = vi.fn((value: unknown) => value);
  client.middlewareStack.add(
    (_next, context) => async () => {
      // where the SDK's logging middleware, just outside, takes its filters from once the call has answered
      Object.assign(context, { inputFilterSensitiveLog: filter, outputFilterSensitiveLog: filter });
      return { output: { $metadata: {}, Item: { PK: { S: 'CAMPAIGN#1' } } }, response: {} } as never;
    },
    { step: 'initialize', priority: 'low', name: 'answerInProcess' },
  );
  const answer = await createDocumentClient(client).send(new GetCommand({ TableName: 't', Key: { PK: 'CAMPAIGN#1' } }));
  expect(answer.Item).toBeDefined();
  return filter.mock.calls.length;
};

const local = { endpoint: 'http://127.0.0.1:1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };

describe('the DynamoDB client', () => {
  it('makes no copies of requests and answers for a logger, where the SDK by default does', async () => {
    expect(await logCopiesOfOneCall(new DynamoDBClient({ region: 'us-east-1', ...local }))).toBeGreaterThan(0);
    expect(await logCopiesOfOneCall(createDynamoDbClient({ endpoint: local.endpoint }))).toBe(0);
  });
});
