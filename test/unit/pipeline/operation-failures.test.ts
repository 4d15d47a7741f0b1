import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../shared/http/response';
import { systemClock } from '../../../shared/ports/clock';
import type { ApiError as ApiErrorClass } from '../../../shared/http/api-error';
import type { TableStore } from '../../../shared/adapters/dynamodb/table-store';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.resetModules();
});

const event = (method: string, path: string): APIGatewayProxyEvent =>
  ({
    httpMethod: method,
    path,
    headers: {},
    body: null,
    isBase64Encoded: false,
    requestContext: { authorizer: null },
  }) as unknown as APIGatewayProxyEvent;
const context = { getRemainingTimeInMillis: () => 29_000, functionName: 'auth' } as Context;

/** A family handler as deployed (inside Lambda), and the lines it writes: metrics to stdout, logs and warnings. */
const deployedHandler = async (
  implementationsOf: (apiError: typeof ApiErrorClass) => Record<string, () => Promise<unknown>>,
) => {
  vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'auth');
  vi.stubEnv('LOG_LEVEL', 'error');
  vi.stubEnv('METRICS_NAMESPACE', 'DeliveryLimits/live');
  vi.stubEnv('STAGE', 'live');
  const lines: Record<string, unknown>[] = [];
  const others: string[] = [];
  const capture = (chunk: unknown) => {
    for (const line of String(chunk).split('\n').filter(Boolean))
      if (line.startsWith('{')) lines.push(JSON.parse(line));
      else others.push(line);
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  // the modules as loaded with this environment, ApiError among them (instanceof must hold)
  const { createFamilyHandler } = await import('../../../shared/pipeline/family-handler');
  const { ApiError } = await import('../../../shared/http/api-error');
  const handler = createFamilyHandler('auth', implementationsOf(ApiError) as never, {
    store: {} as TableStore,
    clock: systemClock,
  });
  const failures = () =>
    lines.filter((line) => 'OperationFailures' in line) as {
      OperationFailures: number;
      operation: string;
      service: string;
      stage: string;
      _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] };
    }[];
  const errors = () => lines.filter((line) => line.level === 'ERROR');
  return { handler, failures, errors, others };
};

describe('a failing operation', () => {
  it('is counted under its route, with the service and stage dimensions the alarms read', async () => {
    const { handler, failures, errors, others } = await deployedHandler(() => ({
      'auth.token': async () => {
        throw new Error('AccessDeniedException');
      },
    }));
    expect((await handler(event('POST', '/rest-api/auth/token.do'), context)).statusCode).toBe(500);
    // the fault is logged once, at error level, with what an operator needs to find it
    expect(errors()).toEqual([
      expect.objectContaining({
        message: 'unhandled error',
        function_name: 'auth',
        errorMessage: 'AccessDeniedException',
      }),
    ]);
    expect(others).toEqual([]);
    expect(failures()).toHaveLength(1);
    const [line] = failures();
    expect(line).toMatchObject({
      OperationFailures: 1,
      operation: 'authToken',
      service: 'delivery-limits',
      stage: 'live',
    });
    expect(line!._aws.CloudWatchMetrics[0]!.Namespace).toBe('DeliveryLimits/live');
    expect(line!._aws.CloudWatchMetrics[0]!.Dimensions[0]!.sort()).toEqual(['operation', 'service', 'stage']);
  });

  it('counts a 503 (a dependency busy) too, but not an answer to the caller (4xx), a success or a route not built', async () => {
    const { handler, failures, others } = await deployedHandler((ApiError) => ({
      'auth.token': async () => {
        throw new ApiError(503, 'busy');
      },
      'auth.login': async () => {
        throw new ApiError(400, 'bad', { errors: { username: 'required' } });
      },
      'auth.forgot': async () => jsonResponse(200, { success: true }),
    }));
    expect((await handler(event('POST', '/rest-api/auth/token.do'), context)).statusCode).toBe(503);
    expect(
      (await handler(event('HEAD', '/rest-api/auth/0123456789abcdef0123456789abcdef/login.do'), context)).statusCode,
    ).toBe(400);
    expect((await handler(event('POST', '/rest-api/auth/forgot.do'), context)).statusCode).toBe(200);
    expect((await handler(event('POST', '/rest-api/auth/reset-password.do'), context)).statusCode).toBe(501);
    expect(failures().map((line) => line.operation)).toEqual(['authToken']);
    // an invocation that stored no metric publishes none, and Powertools has nothing to warn about
    expect(others).toEqual([]);
  });
});
