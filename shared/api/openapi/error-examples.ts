import { one, type ResponseExample } from './examples';

/** Examples of each error status, one per code it may carry. */
export const ERROR_EXAMPLES: Record<number, Record<string, ResponseExample>> = {
  400: one('A parameter out of its rules', {
    success: false,
    code: 'INVALID_PARAMETER',
    message: 'Invalid parameter: dailyImpressionsLimit',
    errors: { dailyImpressionsLimit: 'must not exceed weeklyImpressionsLimit (1500)' },
  }),
  401: one('No credential', { success: false, code: 'UNAUTHENTICATED', message: 'Authentication required' }),
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
    requestId: 'c0a8012e-5d3f-4b7e-9a61-2f4e8d7c6b5a',
  }),
  502: one('Answered by API Gateway', {
    success: false,
    code: 'INTERNAL_ERROR',
    message: 'Internal error',
    requestId: 'c0a8012e-5d3f-4b7e-9a61-2f4e8d7c6b5a',
  }),
  504: one('Answered by API Gateway after 29 s', {
    success: false,
    code: 'INTERNAL_ERROR',
    message: 'Internal error',
    requestId: 'c0a8012e-5d3f-4b7e-9a61-2f4e8d7c6b5a',
  }),
  503: one('Busy; retry after Retry-After', {
    success: false,
    code: 'SERVICE_BUSY',
    message: 'The service is busy; retry shortly',
  }),
};
