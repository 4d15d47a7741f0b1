import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/api/error-codes';
import { renderGatewayTemplate } from '../../shared/api/authorizer-refusal';
import { synthesizedTemplate, type SynthesizedTemplate } from './template';

interface GatewayResponse {
  ResponseType: string;
  StatusCode?: string;
  ResponseTemplates: Record<string, string>;
  ResponseParameters: Record<string, string>;
}

let synthesized: SynthesizedTemplate;
const responseOf = (type: string): GatewayResponse | undefined =>
  synthesized
    .ofType('AWS::ApiGateway::GatewayResponse')
    .map(([, response]) => response.Properties as unknown as GatewayResponse)
    .find((response) => response.ResponseType === type);

beforeAll(() => {
  synthesized = synthesizedTemplate();
}, 60_000);

/** What a client must be able to tell from each answer API Gateway makes itself. */
const EXPECTED: { type: string; status?: string; code: string; retryAfter?: string }[] = [
  { type: 'UNAUTHORIZED', status: '401', code: 'CREDENTIALS_MISSING' },
  // the authorizer's Deny names the refusal in its context, rendered here with a sample one
  { type: 'ACCESS_DENIED', status: '401', code: 'SIGNATURE_INVALID' },
  { type: 'INVALID_API_KEY', status: '403', code: 'INVALID_API_KEY' },
  { type: 'MISSING_AUTHENTICATION_TOKEN', status: '404', code: 'NOT_FOUND' },
  { type: 'REQUEST_TOO_LARGE', status: '413', code: 'BODY_TOO_LARGE' },
  { type: 'THROTTLED', status: '429', code: 'RATE_LIMITED', retryAfter: '1' },
  { type: 'QUOTA_EXCEEDED', status: '429', code: 'RATE_LIMITED', retryAfter: '3600' },
  { type: 'WAF_FILTERED', status: '429', code: 'RATE_LIMITED', retryAfter: '60' },
  { type: 'AUTHORIZER_FAILURE', status: '503', code: 'AUTH_UNAVAILABLE', retryAfter: '1' },
  { type: 'AUTHORIZER_CONFIGURATION_ERROR', status: '503', code: 'AUTH_UNAVAILABLE', retryAfter: '1' },
  { type: 'DEFAULT_4XX', code: 'REQUEST_REFUSED' },
  { type: 'DEFAULT_5XX', code: 'INTERNAL_ERROR' },
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

  it.each(EXPECTED)('$type answers $status $code in the JSON envelope', ({ type, status, code, retryAfter }) => {
    const response = responseOf(type)!;
    expect(response.StatusCode).toBe(status);
    expect(Object.keys(ERROR_CODES)).toContain(code);
    // as API Gateway renders it: every error body names its request
    const rendered = renderGatewayTemplate(response.ResponseTemplates['application/json']!, {
      requestId: 'r-1',
      requestTimeEpoch: 1_781_092_800_000,
      'authorizer.code': 'SIGNATURE_INVALID',
      'authorizer.message': 'The hash does not verify',
    });
    const body = JSON.parse(rendered) as Record<string, unknown>;
    expect(body).toMatchObject({ success: false, code, message: expect.any(String), requestId: 'r-1' });
    if (status === '401') expect(body.serverTime).toBe(1_781_092_800_000);
    expect(response.ResponseParameters).toMatchObject({
      'gatewayresponse.header.Content-Type': "'application/json; charset=utf-8'",
      'gatewayresponse.header.X-Request-Id': 'context.requestId',
    });
    expect(response.ResponseParameters['gatewayresponse.header.Retry-After']).toBe(
      retryAfter === undefined ? undefined : `'${retryAfter}'`,
    );
  });
});
