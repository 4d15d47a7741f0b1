import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
} from 'aws-lambda';
import { PREFLIGHT_HEADERS, REQUEST_ID_HEADER } from '../../shared/api/browser-headers';
import { corsHeaders, type CorsPolicy } from '../../shared/http/cors';
import { JSON_CONTENT_TYPE } from '../../shared/http/response';
import { describeError, logger } from '../../shared/observability/logger';
import { errorCodeOf, type ErrorCode } from '../../shared/api/error-codes';
import {
  DENIED_CREDENTIAL_TEMPLATE,
  MISSING_CREDENTIAL_TEMPLATE,
  renderGatewayTemplate,
} from '../../shared/api/authorizer-refusal';
import { buildAuthorizerEvent } from './api-gateway-event';

/** The authorizer Lambda, as the local API Gateway calls it. */
export type Authorizer = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

/** A gateway-made error in the JSON envelope. */
export const envelope = (
  statusCode: number,
  message: string,
  headers: Record<string, string> = {},
  code: ErrorCode = errorCodeOf(statusCode),
): APIGatewayProxyResult => ({
  statusCode,
  headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers },
  body: JSON.stringify({ success: false, code, message }),
});

/** What API Gateway adds to every answer: the request's id in a header, and in the body of a gateway-made error. */
export const stampRequestId = (result: APIGatewayProxyResult, requestId: string): APIGatewayProxyResult => {
  const headers = { ...result.headers, [REQUEST_ID_HEADER]: requestId };
  if (result.statusCode < 400 || !String(result.headers?.['Content-Type'] ?? '').startsWith('application/json'))
    return { ...result, headers };
  const body = JSON.parse(result.body) as Record<string, unknown>;
  return { ...result, headers, body: JSON.stringify({ ...body, requestId: body.requestId ?? requestId }) };
};

/** The CORS preflight API Gateway answers for a path when the stack has `corsOrigins`. */
export const preflight = (
  policy: CorsPolicy,
  origin: string | undefined,
  routes: readonly { method: string }[],
): APIGatewayProxyResult => ({
  statusCode: 204,
  headers: {
    ...corsHeaders(policy, origin),
    'Access-Control-Allow-Methods': [...new Set([...routes.map((route) => route.method), 'OPTIONS'])].join(','),
    'Access-Control-Allow-Headers': PREFLIGHT_HEADERS,
  },
  body: '',
});

/** A 401 as the stack's UNAUTHORIZED or ACCESS_DENIED gateway response renders it. */
const refusal = (template: string, event: APIGatewayProxyEvent, context: Record<string, unknown> = {}) => ({
  statusCode: 401,
  headers: { 'Content-Type': JSON_CONTENT_TYPE },
  body: renderGatewayTemplate(template, {
    requestTimeEpoch: event.requestContext.requestTimeEpoch,
    requestId: event.requestContext.requestId,
    'authorizer.code': String(context.code ?? ''),
    'authorizer.message': String(context.message ?? ''),
  }),
});

/**
 * What API Gateway does with the authorizer's answer, with the stack's gateway responses: a thrown "Unauthorized"
 * is 401 CREDENTIALS_MISSING, a Deny 401 with the code and message of its context.
 */
export const authorize = async (
  authorizer: Authorizer,
  event: APIGatewayProxyEvent,
  authorizerEvent: APIGatewayRequestAuthorizerEvent = buildAuthorizerEvent(event),
): Promise<APIGatewayProxyResult | undefined> => {
  let result: APIGatewayAuthorizerResult;
  try {
    result = await authorizer(authorizerEvent);
  } catch (error) {
    if (error instanceof Error && error.message === 'Unauthorized') return refusal(MISSING_CREDENTIAL_TEMPLATE, event);
    // as the stack's AUTHORIZER_FAILURE gateway response: a failing dependency of the authorizer is worth a retry
    logger.error('authorizer failed', describeError(error));
    return envelope(
      503,
      'Authentication is unavailable right now; retry shortly',
      { 'Retry-After': '1' },
      'AUTH_UNAVAILABLE',
    );
  }
  const allowed = result.policyDocument.Statement.some((statement) => statement.Effect === 'Allow');
  if (!allowed) return refusal(DENIED_CREDENTIAL_TEMPLATE, event, result.context ?? {});
  event.requestContext.authorizer = { ...(result.context ?? {}), principalId: result.principalId };
  return undefined;
};
