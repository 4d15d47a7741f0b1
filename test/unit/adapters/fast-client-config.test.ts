import { setFlagsFromString } from 'node:v8';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { createDynamoDbClient } from '../../../shared/adapters/dynamodb/dynamodb-client';
import { withFastConfig } from '../../../shared/adapters/fast-client-config';
import { LAMBDA_CLIENT_OPTIONS, lambdaClient, SDK_LOGGER } from '../../../shared/adapters/sdk-client-options';

// V8's own answer, through its natives syntax, allowed for the functions compiled from here on
setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;

describe('an SDK client with a fast configuration', () => {
  it('is needed: the SDK leaves its resolved configuration a dictionary', () => {
    expect(hasFastProperties(new DynamoDBClient(LAMBDA_CLIENT_OPTIONS).config)).toBe(false);
    expect(hasFastProperties(new SQSClient(LAMBDA_CLIENT_OPTIONS).config)).toBe(false);
  });

  it('has the same configuration object, with the same values, laid out fast', () => {
    const client = new SQSClient(LAMBDA_CLIENT_OPTIONS);
    const { config } = client;
    const before = Object.entries(config);
    expect(withFastConfig(client)).toBe(client);
    expect(client.config).toBe(config);
    expect(hasFastProperties(config)).toBe(true);
    expect(Object.entries(config)).toEqual(before);
  });

  it('is what lambdaClient builds, with the options every Lambda client shares', () => {
    const client = lambdaClient(SQSClient);
    expect(client).toBeInstanceOf(SQSClient);
    expect(hasFastProperties(client.config)).toBe(true);
    expect(client.config).toMatchObject({ logger: SDK_LOGGER, cacheMiddleware: true });
  });

  it('is what createDynamoDbClient builds, for Lambda and for DynamoDB Local', () => {
    expect(hasFastProperties(createDynamoDbClient({ cacheMiddleware: true }).config)).toBe(true);
    expect(hasFastProperties(createDynamoDbClient({ endpoint: 'http://127.0.0.1:8000' }).config)).toBe(true);
  });
});
