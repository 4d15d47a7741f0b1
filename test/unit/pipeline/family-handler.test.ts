import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../shared/ports/clock';
import { createFamilyHandler } from '../../../shared/pipeline/family-handler';
import { jsonResponse } from '../../../shared/http/response';
import type { TableStore } from '../../../shared/adapters/dynamodb/table-store';

const event = (method: string, path: string): APIGatewayProxyEvent =>
  ({
    httpMethod: method,
    path,
    headers: {},
    body: null,
    isBase64Encoded: false,
    requestContext: { authorizer: null },
  }) as unknown as APIGatewayProxyEvent;
const context = { getRemainingTimeInMillis: () => 29_000 } as Context;
const ports = { store: {} as TableStore, clock: systemClock };

describe('a family handler', () => {
  it('answers 501 for a route of the table whose operation is not built yet', async () => {
    const handler = createFamilyHandler('auth', { 'auth.token': async () => jsonResponse(200, { ok: true }) }, ports);
    expect(await handler(event('POST', '/rest-api/auth/token.do'), context)).toMatchObject({ statusCode: 200 });
    const missing = await handler(event('POST', '/rest-api/auth/forgot.do'), context);
    expect(missing).toMatchObject({ statusCode: 501 });
    expect(JSON.parse(missing.body)).toEqual({
      success: false,
      code: 'NOT_IMPLEMENTED',
      message: 'not implemented yet',
    });
  });

  it('answers 404 in the envelope for a path outside its family', async () => {
    const handler = createFamilyHandler('auth', {}, ports);
    const response = await handler(event('GET', '/rest-api/campaign/100/limits.do'), context);
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body)).toMatchObject({ success: false });
  });

  it('answers 500 in the envelope, without details, when an operation fails unexpectedly', async () => {
    process.env.LOG_LEVEL = 'silent';
    const handler = createFamilyHandler(
      'auth',
      {
        'auth.token': async () => {
          throw new Error('secret detail');
        },
      },
      ports,
    );
    const response = await handler(event('POST', '/rest-api/auth/token.do'), context);
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret detail');
  });
});
