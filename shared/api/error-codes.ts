/** The stable, machine-readable `code` of every error envelope, listed in the OpenAPI document. */
export const ERROR_CODES = {
  INVALID_PARAMETER: 'A parameter is missing or malformed; `errors` names each one. Nothing was changed.',
  CREDENTIALS_MISSING:
    'No credential: send `X-Api-Key`, the `username`, `timestamp` and `hash` parameters, or the session cookie.',
  TIMESTAMP_OUT_OF_WINDOW:
    "The hash's `timestamp` is not Unix milliseconds within 5 minutes of the server's time (`serverTime`, and the " +
    'message names it); seconds in place of milliseconds are named as such. Sign again with the current time.',
  SIGNATURE_INVALID:
    '`hash` does not verify for `username` and `timestamp` (an unknown user name answers the same): ' +
    '`hash = md5hex(md5hex(password) + timestamp)`.',
  API_KEY_INVALID: 'The `X-Api-Key` is unknown or revoked.',
  SESSION_EXPIRED:
    'The session cookie is unknown, expired, or ended by a password reset or a deactivation; log in again.',
  ACCOUNT_INACTIVE: 'The credential is right but its account is deactivated; the operator can reactivate it.',
  UNAUTHENTICATED: 'token.do: the user name or password is wrong, or the account inactive (one answer for all).',
  REQUEST_REPLAYED:
    'A signed write identical to one already received under the same timestamp; sign it again with a new timestamp.',
  INVALID_API_KEY: 'The API key is not registered with the gateway for metering; the operator must register it.',
  PERMISSION_REQUIRED: 'The caller lacks the permission named in `permission`.',
  NO_ACCESS: 'The caller holds no share (or no UPDATE share) on the entity.',
  NOT_FOUND: 'No such route, entity or record.',
  LIMITS_NOT_SET: 'The entity has no limits (or no per-action limit for the action) to change or reset.',
  METHOD_NOT_ALLOWED: 'The path exists, with other methods.',
  IDEMPOTENCY_KEY_IN_USE:
    'A request with this `Idempotency-Key` is still being processed; retry after `Retry-After` for its answer.',
  IDEMPOTENCY_KEY_REUSED: 'This `Idempotency-Key` was used within 24 hours for a different request; use a new key.',
  BODY_TOO_LARGE: 'The request body is over 1 MiB.',
  HEADERS_TOO_LARGE: 'The request headers are too large.',
  RATE_LIMITED: 'Over a rate or a daily quota; retry after `Retry-After` seconds, with backoff.',
  INTERNAL_ERROR: 'A fault of the service; the answer carries `requestId` for the operator.',
  NOT_IMPLEMENTED: 'The route exists but is not built.',
  SERVICE_BUSY: 'A dependency is busy or unavailable; retry after `Retry-After`. Nothing was changed.',
  AUTH_UNAVAILABLE: 'Credentials could not be checked right now; retry after `Retry-After`. Nothing was changed.',
  REQUEST_REFUSED:
    'API Gateway refused the request before it reached the service (the local server: a request a web page of ' +
    'another origin sent, or one whose Host does not name the machine).',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The code an error answers when it names none: by its status, a 403 by whether it names a permission. */
export const errorCodeOf = (statusCode: number, namesPermission = false): ErrorCode => {
  if (statusCode === 403) return namesPermission ? 'PERMISSION_REQUIRED' : 'NO_ACCESS';
  const byStatus: Record<number, ErrorCode> = {
    400: 'INVALID_PARAMETER',
    401: 'UNAUTHENTICATED',
    404: 'NOT_FOUND',
    405: 'METHOD_NOT_ALLOWED',
    409: 'IDEMPOTENCY_KEY_IN_USE',
    413: 'BODY_TOO_LARGE',
    422: 'IDEMPOTENCY_KEY_REUSED',
    429: 'RATE_LIMITED',
    431: 'HEADERS_TOO_LARGE',
    501: 'NOT_IMPLEMENTED',
    503: 'SERVICE_BUSY',
  };
  return byStatus[statusCode] ?? (statusCode >= 500 ? 'INTERNAL_ERROR' : 'INVALID_PARAMETER');
};
