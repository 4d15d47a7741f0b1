import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { TableStore } from '../../../shared/adapters/dynamodb/table-store';
import { jsonResponse } from '../../../shared/http/response';
import { createFamilyHandler } from '../../../shared/pipeline/family-handler';
import { systemClock } from '../../../shared/ports/clock';

const formPost = (body: string): APIGatewayProxyEvent =>
  ({
    httpMethod: 'POST',
    path: '/rest-api/auth/token.do',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
    isBase64Encoded: false,
    requestContext: { authorizer: null, requestId: 'gateway-request-7' },
  }) as unknown as APIGatewayProxyEvent;
const context = { getRemainingTimeInMillis: () => 29_000 } as Context;
const handler = createFamilyHandler(
  'auth',
  { 'auth.token': async () => jsonResponse(200, { ok: true }) },
  {
    store: {} as TableStore,
    clock: systemClock,
  },
);

describe("a family handler's form body refusals", () => {
  it('answers a bare word in the 400 envelope naming the body, with the request id as every error has it', async () => {
    const response = await handler(formPost('abc'), context);
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      success: false,
      code: 'INVALID_PARAMETER',
      message: 'Malformed form body',
      errors: { body: 'not a URL-encoded form' },
      requestId: 'gateway-request-7',
    });
  });

  it('reads a form and answers a broken escape with the 400 envelope naming the body', async () => {
    expect(await handler(formPost('a=1&b=2'), context)).toMatchObject({ statusCode: 200 });
    const broken = await handler(formPost('a=%E2%82'), context);
    expect(broken.statusCode).toBe(400);
    expect(JSON.parse(broken.body)).toMatchObject({ errors: { body: 'invalid percent-encoding' } });
  });
});
