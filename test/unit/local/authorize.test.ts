import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { GATEWAY_ANSWERS } from '../../../infra/cdk/gateway-responses';
import { authorize } from '../../../infra/local/local-server';

const event = () => ({ requestContext: {} }) as APIGatewayProxyEvent;
const authorizerEvent = {} as APIGatewayRequestAuthorizerEvent;

describe("the local gateway's authorizer step", () => {
  it('answers a failing authorizer as the stack does: 503 AUTH_UNAVAILABLE, retry after a second', async () => {
    const answer = await authorize(
      async () => {
        throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
      },
      event(),
      authorizerEvent,
    );
    expect(answer).toMatchObject({ statusCode: 503, headers: { 'Retry-After': '1' } });
    const body = JSON.parse(answer!.body) as { success: boolean; code: string; message: string };
    expect(body).toMatchObject({ success: false, code: 'AUTH_UNAVAILABLE' });
    const deployed = GATEWAY_ANSWERS.find((gateway) => gateway.type.responseType === 'AUTHORIZER_CONFIGURATION_ERROR')!;
    expect({ statusCode: answer!.statusCode, code: body.code, message: body.message }).toEqual({
      statusCode: deployed.statusCode,
      code: deployed.code,
      message: deployed.message,
    });
    expect(answer!.headers!['Retry-After']).toBe(String(deployed.retryAfter));
  });

  it('answers a refusal 401 UNAUTHENTICATED, not a retry', async () => {
    const answer = await authorize(
      async () => {
        throw new Error('Unauthorized');
      },
      event(),
      authorizerEvent,
    );
    expect(answer).toMatchObject({ statusCode: 401 });
    expect(JSON.parse(answer!.body)).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(answer!.headers!['Retry-After']).toBeUndefined();
  });
});
