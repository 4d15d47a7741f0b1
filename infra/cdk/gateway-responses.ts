import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { EXPOSED_HEADERS, REQUEST_ID_HEADER } from '../../shared/api/browser-headers';
import type { ErrorCode } from '../../shared/api/error-codes';
import { DENIED_CREDENTIAL_TEMPLATE, MISSING_CREDENTIAL_TEMPLATE } from '../../shared/api/authorizer-refusal';

export interface GatewayAnswer {
  type: apigateway.ResponseType;
  /** Absent for the defaults: they keep the status API Gateway chose. */
  statusCode?: number;
  code: ErrorCode;
  message: string;
  /** Seconds a client should wait before it retries. */
  retryAfter?: number;
  /** A body of its own, in place of the envelope made from `code` and `message`. */
  template?: string;
}

const retryable = 'Authentication is unavailable right now; retry shortly';

/**
 * Every answer API Gateway makes itself, in the service's envelope. A usage plan's daily quota renews once a day,
 * so a retry within the hour is pointless; a throttle, a blocked source address and a failing authorizer pass
 * within seconds.
 */
export const GATEWAY_ANSWERS: readonly GatewayAnswer[] = [
  // the authorizer throws "Unauthorized" only when it sees no credential at all
  {
    type: apigateway.ResponseType.UNAUTHORIZED,
    statusCode: 401,
    code: 'CREDENTIALS_MISSING',
    message: 'No credential',
    template: MISSING_CREDENTIAL_TEMPLATE,
  },
  // the authorizer denies a refused credential, naming the refusal's code and message in its context
  {
    type: apigateway.ResponseType.ACCESS_DENIED,
    statusCode: 401,
    code: 'UNAUTHENTICATED',
    message: 'Refused credential',
    template: DENIED_CREDENTIAL_TEMPLATE,
  },
  {
    type: apigateway.ResponseType.INVALID_API_KEY,
    statusCode: 403,
    code: 'INVALID_API_KEY',
    message: 'The API key is not registered for metering; ask the operator to register it',
  },
  {
    type: apigateway.ResponseType.MISSING_AUTHENTICATION_TOKEN,
    statusCode: 404,
    code: 'NOT_FOUND',
    message: 'No such route',
  },
  {
    type: apigateway.ResponseType.THROTTLED,
    statusCode: 429,
    code: 'RATE_LIMITED',
    message: 'Too many requests; retry after Retry-After seconds',
    retryAfter: 1,
  },
  {
    type: apigateway.ResponseType.QUOTA_EXCEEDED,
    statusCode: 429,
    code: 'RATE_LIMITED',
    message: 'The daily quota is used up; it renews daily',
    retryAfter: 3600,
  },
  {
    type: apigateway.ResponseType.WAF_FILTERED,
    statusCode: 429,
    code: 'RATE_LIMITED',
    message: 'Too many requests from this address; retry after Retry-After seconds',
    retryAfter: 60,
  },
  {
    type: apigateway.ResponseType.REQUEST_TOO_LARGE,
    statusCode: 413,
    code: 'BODY_TOO_LARGE',
    message: 'The request body is too large',
  },
  // an authorizer that throws (a throttled table, a timeout) is AUTHORIZER_CONFIGURATION_ERROR to API Gateway
  {
    type: apigateway.ResponseType.AUTHORIZER_FAILURE,
    statusCode: 503,
    code: 'AUTH_UNAVAILABLE',
    message: retryable,
    retryAfter: 1,
  },
  {
    type: apigateway.ResponseType.AUTHORIZER_CONFIGURATION_ERROR,
    statusCode: 503,
    code: 'AUTH_UNAVAILABLE',
    message: retryable,
    retryAfter: 1,
  },
  {
    type: apigateway.ResponseType.DEFAULT_4XX,
    code: 'REQUEST_REFUSED',
    message: 'API Gateway refused the request',
  },
  { type: apigateway.ResponseType.DEFAULT_5XX, code: 'INTERNAL_ERROR', message: 'Internal error' },
];

/** The envelope as a mapping template, naming the request as the handlers' errors do. */
const envelope = ({ code, message, template }: GatewayAnswer): string =>
  template ?? `{"success":false,"code":"${code}","message":"${message}","requestId":"$context.requestId"}`;

export const addGatewayAnswers = (api: apigateway.RestApi, corsOrigins: readonly string[] | undefined): void => {
  for (const answer of GATEWAY_ANSWERS)
    api.addGatewayResponse(`Response${answer.type.responseType}`, {
      type: answer.type,
      ...(answer.statusCode !== undefined ? { statusCode: String(answer.statusCode) } : {}),
      templates: { 'application/json': envelope(answer) },
      responseHeaders: {
        'Content-Type': "'application/json; charset=utf-8'",
        [REQUEST_ID_HEADER]: 'context.requestId',
        ...(answer.retryAfter !== undefined ? { 'Retry-After': `'${answer.retryAfter}'` } : {}),
        // a gateway response cannot look at the Origin: it names the first allowed origin (the UI's)
        ...(corsOrigins?.length
          ? {
              'Access-Control-Allow-Origin': `'${corsOrigins[0]}'`,
              'Access-Control-Allow-Credentials': "'true'",
              'Access-Control-Expose-Headers': `'${EXPOSED_HEADERS}'`,
              Vary: "'Origin'",
            }
          : {}),
      },
    });
};
