import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { GATEWAY_ANSWERS } from '../../../infra/cdk/gateway-responses';
import { authorize } from '../../../infra/local/local-server';

const event = () =>
  ({ requestContext: { requestId: 'r-1', requestTimeEpoch: 1_781_092_800_000 } }) as APIGatewayProxyEvent;
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

  it('answers a thrown "Unauthorized" 401 CREDENTIALS_MISSING, with the time and the request id, not a retry', async () => {
    const answer = await authorize(
      async () => {
        throw new Error('Unauthorized');
      },
      event(),
      authorizerEvent,
    );
    expect(answer).toMatchObject({ statusCode: 401 });
    expect(JSON.parse(answer!.body)).toEqual({
      success: false,
      code: 'CREDENTIALS_MISSING',
      message: expect.stringContaining('No credential'),
      serverTime: 1_781_092_800_000,
      requestId: 'r-1',
    });
    expect(answer!.headers!['Retry-After']).toBeUndefined();
  });

  it("answers a Deny 401 with the code and message of the authorizer's context, as the stack's template", async () => {
    const answer = await authorize(
      async () => ({
        principalId: 'refused',
        policyDocument: {
          Version: '2012-10-17',
          Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: 'arn' }],
        },
        context: { code: 'SIGNATURE_INVALID', message: 'The hash does not verify' },
      }),
      event(),
      authorizerEvent,
    );
    expect(answer!.statusCode).toBe(401);
    expect(JSON.parse(answer!.body)).toEqual({
      success: false,
      code: 'SIGNATURE_INVALID',
      message: 'The hash does not verify',
      serverTime: 1_781_092_800_000,
      requestId: 'r-1',
    });
    const deployed = GATEWAY_ANSWERS.find((gateway) => gateway.type.responseType === 'ACCESS_DENIED')!;
    expect(deployed.statusCode).toBe(401);
  });
});
