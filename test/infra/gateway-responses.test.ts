import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/api/error-codes';
import { synthesize, type Synthesized } from './template';

interface GatewayResponse {
  ResponseType: string;
  StatusCode?: string;
  ResponseTemplates: Record<string, string>;
  ResponseParameters: Record<string, string>;
}

let synthesized: Synthesized;
const responseOf = (type: string): GatewayResponse | undefined =>
  synthesized
    .ofType('AWS::ApiGateway::GatewayResponse')
    .map(([, response]) => response.Properties as unknown as GatewayResponse)
    .find((response) => response.ResponseType === type);

beforeAll(() => {
  synthesized = synthesize();
}, 60_000);

/** What a client must be able to tell from each answer API Gateway makes itself. */
const EXPECTED: { type: string; status?: string; code: string; retryAfter?: string; requestId?: boolean }[] = [
  { type: 'UNAUTHORIZED', status: '401', code: 'UNAUTHENTICATED' },
  { type: 'ACCESS_DENIED', status: '403', code: 'NO_ACCESS' },
  { type: 'INVALID_API_KEY', status: '403', code: 'INVALID_API_KEY' },
  { type: 'MISSING_AUTHENTICATION_TOKEN', status: '404', code: 'NOT_FOUND' },
  { type: 'REQUEST_TOO_LARGE', status: '413', code: 'BODY_TOO_LARGE' },
  { type: 'THROTTLED', status: '429', code: 'RATE_LIMITED', retryAfter: '1' },
  { type: 'QUOTA_EXCEEDED', status: '429', code: 'RATE_LIMITED', retryAfter: '3600' },
  { type: 'WAF_FILTERED', status: '429', code: 'RATE_LIMITED', retryAfter: '60' },
  { type: 'AUTHORIZER_FAILURE', status: '503', code: 'AUTH_UNAVAILABLE', retryAfter: '1', requestId: true },
  {
    type: 'AUTHORIZER_CONFIGURATION_ERROR',
    status: '503',
    code: 'AUTH_UNAVAILABLE',
    retryAfter: '1',
    requestId: true,
  },
  { type: 'DEFAULT_4XX', code: 'REQUEST_REFUSED' },
  { type: 'DEFAULT_5XX', code: 'INTERNAL_ERROR', requestId: true },
];

describe('gateway responses', () => {
  it('are exactly the expected ones', () => {
    expect(
      synthesized
        .ofType('AWS::ApiGateway::GatewayResponse')
        .map(([, response]) => response.Properties.ResponseType)
        .sort(),
    ).toEqual(EXPECTED.map(({ type }) => type).sort());
  });

  it.each(EXPECTED)(
    '$type answers $status $code in the JSON envelope',
    ({ type, status, code, retryAfter, requestId }) => {
      const response = responseOf(type)!;
      expect(response.StatusCode).toBe(status);
      expect(Object.keys(ERROR_CODES)).toContain(code);
      const body = JSON.parse(response.ResponseTemplates['application/json']!) as Record<string, unknown>;
      expect(body).toMatchObject({ success: false, code, message: expect.any(String) });
      expect(body.requestId).toBe(requestId ? '$context.requestId' : undefined);
      expect(response.ResponseParameters).toMatchObject({
        'gatewayresponse.header.Content-Type': "'application/json; charset=utf-8'",
        'gatewayresponse.header.X-Request-Id': 'context.requestId',
      });
      expect(response.ResponseParameters['gatewayresponse.header.Retry-After']).toBe(
        retryAfter === undefined ? undefined : `'${retryAfter}'`,
      );
    },
  );
});
