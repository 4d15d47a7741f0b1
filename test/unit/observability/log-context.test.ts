import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';

// before the logger loads: it takes its level, and how the container started, once, as in Lambda
vi.hoisted(() => {
  process.env.LOG_LEVEL = 'info';
  process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
});
import { captureOutput } from '../../support/captured-output';
import { createFamilyHandler } from '../../../shared/pipeline/family-handler';
import { jsonResponse } from '../../../shared/http/response';
import { logger } from '../../../shared/observability/logger';
import { systemClock } from '../../../shared/ports/clock';
import type { TableStore } from '../../../shared/adapters/dynamodb/table-store';

const event = (requestId: string): APIGatewayProxyEvent =>
  ({
    httpMethod: 'POST',
    path: '/rest-api/auth/token.do',
    headers: {},
    body: null,
    isBase64Encoded: false,
    requestContext: { authorizer: null, requestId },
  }) as unknown as APIGatewayProxyEvent;
const context = (awsRequestId: string) =>
  ({
    awsRequestId,
    functionName: 'delivery-limits-auth',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:delivery-limits-auth',
    memoryLimitInMB: '512',
    getRemainingTimeInMillis: () => 29_000,
  }) as Context;

const shared: APIGatewayProxyResult = jsonResponse(200, { ok: true });
let fail = false;
const handler = createFamilyHandler(
  'auth',
  {
    'auth.token': async () => {
      logger.warn('operation note', { detail: 'chosen field' });
      if (fail) throw new Error('unexpected');
      return shared;
    },
  },
  { store: {} as TableStore, clock: systemClock },
);

describe('log lines of a family handler', () => {
  const written = captureOutput();
  const lines = () =>
    written()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  afterEach(() => {
    fail = false;
  });

  it('name the invocation being served, cold start only on the first, and nothing once it has ended', async () => {
    await handler(event('gateway-1'), context('lambda-1'));
    await handler(event('gateway-2'), context('lambda-2'));
    logger.warn('between invocations');
    const [first, second, between] = lines();
    expect(first).toMatchObject({
      level: 'WARN',
      message: 'operation note',
      service: 'delivery-limits',
      detail: 'chosen field',
      requestId: 'gateway-1',
      function_request_id: 'lambda-1',
      function_name: 'delivery-limits-auth',
      function_arn: 'arn:aws:lambda:eu-west-1:123456789012:function:delivery-limits-auth',
      function_memory_size: '512',
      cold_start: true,
    });
    expect(second).toMatchObject({ requestId: 'gateway-2', function_request_id: 'lambda-2', cold_start: false });
    expect(between).toMatchObject({ message: 'between invocations' });
    for (const key of ['requestId', 'function_request_id', 'function_name', 'cold_start'])
      expect(between).not.toHaveProperty(key);
  });

  it('name the invocation on the error path too, its last line included', async () => {
    fail = true;
    const response = await handler(event('gateway-3'), context('lambda-3'));
    expect(response.statusCode).toBe(500);
    const unhandled = lines().find((line) => line.message === 'unhandled error');
    expect(unhandled).toMatchObject({ level: 'ERROR', requestId: 'gateway-3', function_request_id: 'lambda-3' });
  });

  it('answer with the request id in a new answer, never in the one an operation shares between calls', async () => {
    const response = await handler(event('gateway-4'), context('lambda-4'));
    expect(response.headers).toMatchObject({ 'X-Request-Id': 'gateway-4' });
    expect(response).not.toBe(shared);
    expect(shared.headers ?? {}).not.toHaveProperty('X-Request-Id');
  });
});
