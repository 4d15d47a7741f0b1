import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tracing } from '../../../shared/observability/tracing';

const xrayMiddleware = (client: DynamoDBClient) =>
  client.middlewareStack.identify().filter((name) => name.startsWith('XRaySDKInstrumentation'));

const request = () => ({
  event: {},
  context: { functionName: 'demand-limits' },
  response: null,
  error: null,
  internal: {},
});

afterEach(() => vi.unstubAllEnvs());

describe('tracing', () => {
  it('is nothing at all unless the stack turned it on', () => {
    vi.stubEnv('POWERTOOLS_TRACE_ENABLED', 'false');
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'demand-limits');
    const client = new DynamoDBClient({ region: 'us-east-1' });
    expect(tracing([client])).toEqual([]);
    expect(xrayMiddleware(client)).toEqual([]);
  });

  it('when on, loads Powertools Tracer on the first invocation and traces the SDK calls of the given clients', async () => {
    vi.stubEnv('POWERTOOLS_TRACE_ENABLED', 'true');
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'demand-limits');
    vi.stubEnv('AWS_EXECUTION_ENV', 'AWS_Lambda_nodejs24.x');
    vi.stubEnv('AWS_XRAY_CONTEXT_MISSING', 'IGNORE_ERROR');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const client = new DynamoDBClient({ region: 'us-east-1' });
    const [middleware] = tracing([client]);
    expect(xrayMiddleware(client)).toEqual([]);
    await middleware!.before!(request() as never);
    expect(xrayMiddleware(client)).not.toEqual([]);
  });
});
