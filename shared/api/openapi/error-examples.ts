import { one, type ResponseExample } from './examples';

const EXAMPLE_REQUEST_ID = 'c0a8012e-5d3f-4b7e-9a61-2f4e8d7c6b5a';

const refused = (summary: string, code: string, message: string): ResponseExample => ({
  summary,
  value: { success: false, code, message, serverTime: 1781092800000, requestId: EXAMPLE_REQUEST_ID },
});

/** Every error body names its request, as the service's do. */
const withRequestIds = (
  examples: Record<number, Record<string, ResponseExample>>,
): Record<number, Record<string, ResponseExample>> =>
  Object.fromEntries(
    Object.entries(examples).map(([status, named]) => [
      status,
      Object.fromEntries(
        Object.entries(named).map(([name, { summary, value }]) => [
          name,
          { summary, value: { ...(value as object), requestId: EXAMPLE_REQUEST_ID } },
        ]),
      ),
    ]),
  );

/** Examples of each error status, one per code it may carry. */
export const ERROR_EXAMPLES: Record<number, Record<string, ResponseExample>> = withRequestIds({
  400: one('A parameter out of its rules', {
    success: false,
    code: 'INVALID_PARAMETER',
    message: 'Invalid parameter: dailyImpressionsLimit',
    errors: { dailyImpressionsLimit: 'must not exceed weeklyImpressionsLimit (1500)' },
  }),
  401: {
    missing: refused(
      'No credential',
      'CREDENTIALS_MISSING',
      'No credential: send X-Api-Key, the username, timestamp and hash parameters, or the session cookie',
    ),
    seconds: refused(
      'A timestamp in seconds',
      'TIMESTAMP_OUT_OF_WINDOW',
      'The timestamp 1781092800 looks like seconds: send Unix time in milliseconds (1781092800000 now); it must ' +
        "be within 300 s of the server's time, 2026-06-10T12:00:00.000Z (1781092800000 ms). Sign each request " +
        'with the current time',
    ),
    signature: refused(
      'A hash that does not verify, or an unknown user name',
      'SIGNATURE_INVALID',
      'The hash does not verify for this username and timestamp: hash = md5hex(md5hex(password) + timestamp), ' +
        'lower-case hex, with the timestamp exactly as sent',
    ),
    apiKey: refused(
      'An unknown or revoked API key',
      'API_KEY_INVALID',
      'The API key is unknown or revoked: check X-Api-Key, or ask for a new key',
    ),
    session: refused(
      'An expired session',
      'SESSION_EXPIRED',
      'The session is unknown, expired or ended: log in again for a new session',
    ),
  },
  403: {
    permission: {
      summary: 'A permission is missing',
      value: {
        success: false,
        code: 'PERMISSION_REQUIRED',
        message: 'Changing weeklyClicksLimit requires the "Weekly Clicks Limit" permission',
        permission: 'Weekly Clicks Limit',
      },
    },
    noAccess: {
      summary: 'No share on the entity',
      value: { success: false, code: 'NO_ACCESS', message: 'No access to campaign 100' },
    },
  },
  404: {
    notFound: {
      summary: 'No such entity',
      value: { success: false, code: 'NOT_FOUND', message: 'campaign 999 not found' },
    },
    limitsNotSet: {
      summary: 'Nothing to change',
      value: {
        success: false,
        code: 'LIMITS_NOT_SET',
        message: 'campaign 100 has no limits; create them with set.do',
      },
    },
  },
  405: one('Another method', {
    success: false,
    code: 'METHOD_NOT_ALLOWED',
    message: 'Method PUT is not allowed here; use GET, DELETE',
  }),
  409: one('The first request with this key is in flight', {
    success: false,
    code: 'IDEMPOTENCY_KEY_IN_USE',
    message:
      'A request with this Idempotency-Key is still being processed; retry after Retry-After seconds for its answer',
  }),
  422: one('The key was used for another request', {
    success: false,
    code: 'IDEMPOTENCY_KEY_REUSED',
    message: 'This Idempotency-Key was used within 24 hours for a different request: use a new key for a new request',
  }),
  413: one('Too large', { success: false, code: 'BODY_TOO_LARGE', message: 'The request body is larger than 1 MiB' }),
  429: one('Over the plan', { success: false, code: 'RATE_LIMITED', message: 'Too many requests' }),
  431: one('Headers too large', {
    success: false,
    code: 'HEADERS_TOO_LARGE',
    message: 'The request headers are too large',
  }),
  500: one('A fault; quote the request id', {
    success: false,
    code: 'INTERNAL_ERROR',
    message: 'Internal error',
    requestId: EXAMPLE_REQUEST_ID,
  }),
  502: one('Answered by API Gateway', {
    success: false,
    code: 'INTERNAL_ERROR',
    message: 'Internal error',
    requestId: EXAMPLE_REQUEST_ID,
  }),
  504: one('Answered by API Gateway after 29 s', {
    success: false,
    code: 'INTERNAL_ERROR',
    message: 'Internal error',
    requestId: EXAMPLE_REQUEST_ID,
  }),
  503: one('Busy; retry after Retry-After', {
    success: false,
    code: 'SERVICE_BUSY',
    message: 'The service is busy; retry shortly',
  }),
});
