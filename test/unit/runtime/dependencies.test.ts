import { GetItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createHash } from 'node:crypto';
import { SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { createDynamoDbClient } from '../../../shared/adapters/dynamodb/dynamodb-client';
import type { LimitReached } from '../../../shared/domain/delivery/limit-reached';
import {
  deadLettersFromEnvironment,
  eventsFromEnvironment,
  mailerFromEnvironment,
  resetQueueFromEnvironment,
  resetSourceFromEnvironment,
  storeFromEnvironment,
  streamDeadLettersFromEnvironment,
} from '../../../shared/runtime/dependencies';

type SdkClient = Pick<DynamoDBClient, 'middlewareStack'>;

/** The AWS client an adapter was built with. */
const clientOf = (adapter: object): SdkClient => (adapter as unknown as { client: SdkClient }).client;

/** An empty answer; SQS's carries the MD5 of the message body, which the SDK checks. */
const answerTo = ({ MessageBody }: { MessageBody?: string }) => ({
  $metadata: {},
  ...(MessageBody !== undefined ? { MD5OfMessageBody: createHash('md5').update(MessageBody).digest('hex') } : {}),
});

/**
 * How many of three calls went through the middleware stack as it was resolved before the first: every request is
 * answered in process, and a middleware added after the first call counts the calls that pass it.
 */
const requestsOnTheFirstStack = async (client: SdkClient, call: () => Promise<unknown>): Promise<number> => {
  client.middlewareStack.add(
    () => async (args) => ({ output: answerTo(args.input as { MessageBody?: string }) as never, response: {} }),
    { step: 'initialize', priority: 'low', name: 'answerInProcess' },
  );
  await call();
  let seen = 0;
  client.middlewareStack.add((next) => (args) => (seen++, next(args)), { step: 'initialize', name: 'addedLater' });
  await call();
  await call();
  return 2 - seen;
};

/** One GetItem through `client`, the request any DynamoDB client can be sent. */
const getItemThrough = (client: DynamoDBClient) => () =>
  client.send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'CAMPAIGN#1' } } }));

const queueUrl = 'https://sqs.us-east-1.amazonaws.com/000000000000/queue';
const reset = {
  entityType: 'CAMPAIGN',
  entityId: 1,
  limitId: 1,
  counters: ['DAILY_CLICKS'],
  requestedAt: '2026-11-24T00:00:00.000Z',
  requestedBy: 1,
} as never;

describe('the AWS clients a Lambda function builds', () => {
  const dynamoDb = storeFromEnvironment({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:1' }).client;
  const resetQueue = resetQueueFromEnvironment({ RESET_QUEUE_URL: queueUrl });
  const resetSource = resetSourceFromEnvironment({ RESET_QUEUE_URL: queueUrl });
  const deadLetters = deadLettersFromEnvironment({ DELIVERY_DLQ_URL: queueUrl });
  const events = eventsFromEnvironment({});
  const mailer = mailerFromEnvironment({});
  const calls: [string, SdkClient, () => Promise<unknown>][] = [
    ['DynamoDB', dynamoDb, getItemThrough(dynamoDb)],
    ['the reset queue', clientOf(resetQueue), () => resetQueue.enqueue(reset)],
    ['the reset source', clientOf(resetSource), () => resetSource.receive(1)],
    ['the dead letters', clientOf(deadLetters), () => deadLetters.send('{}', 'a reason')],
    ['EventBridge', clientOf(events), () => events.publishLimitReached([{} as LimitReached])],
    ['SES', clientOf(mailer), () => mailer.send({ to: 'a@example.com', subject: 's', text: 't' })],
  ];

  it.each(calls)("%s: resolve the SDK's middleware once per kind of request", async (_name, client, call) => {
    expect(await requestsOnTheFirstStack(client, call)).toBe(2);
  });

  it("build a dead-letter queue's SQS client when it is first used, not at cold start", () => {
    for (const sink of [
      deadLettersFromEnvironment({ DELIVERY_DLQ_URL: queueUrl }),
      streamDeadLettersFromEnvironment({ HISTORY_DLQ_URL: queueUrl }),
    ]) {
      const clients = () =>
        JSON.stringify(Object.values(sink), (_key, value) => (value instanceof SQSClient ? 'SQS' : value));
      expect(clients()).not.toContain('SQS');
      expect(clientOf(sink)).toBeInstanceOf(SQSClient);
      expect(clients()).toContain('SQS');
    }
  });

  it('while the local server resolves it on every request, for its fault injection and probes', async () => {
    const local = createDynamoDbClient({ endpoint: 'http://127.0.0.1:1' });
    expect(await requestsOnTheFirstStack(local, getItemThrough(local))).toBe(0);
  });
});
