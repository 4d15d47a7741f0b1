/** One error code: its HTTP status (`4xx` where API Gateway chooses), its meaning and its fix, in Markdown. */
export interface ErrorCodeEntry {
  status: `${number}` | '4xx';
  meaning: string;
  fix: string;
}

/**
 * Every `code` an error envelope can carry: stable and machine-readable (`message` is for people and may change),
 * with the status it comes with, what it means and what fixes it. The one list of them: the partner guide's table
 * (`npm run docs:error-codes` writes it) and the OpenAPI document's `ErrorEnvelope` are made from it.
 */
export const ERROR_CODES = {
  INVALID_PARAMETER: {
    status: '400',
    meaning: 'a parameter is missing or malformed; `errors` names each one; nothing was changed',
    fix: 'correct each parameter `errors` names',
  },
  CREDENTIALS_MISSING: {
    status: '401',
    meaning: 'no credential where the service reads one',
    fix: 'send `X-Api-Key`, the `username`, `timestamp` and `hash` parameters (query or form body, not JSON), or the session cookie',
  },
  TIMESTAMP_OUT_OF_WINDOW: {
    status: '401',
    meaning:
      '`timestamp` is not Unix milliseconds within 5 minutes of `serverTime`; the message names the skew, or says the timestamp looks like seconds',
    fix: 'sign with the current time in milliseconds (`date +%s%3N`, `Time.now.to_i * 1000`); synchronise the clock (NTP)',
  },
  SIGNATURE_INVALID: {
    status: '401',
    meaning: '`hash` does not verify for `username` and `timestamp`; an unknown user name answers the same',
    fix: '`hash = md5hex(md5hex(password) + timestamp)`, lower-case hex, the timestamp as the text sent; check the user name and password',
  },
  API_KEY_INVALID: {
    status: '401',
    meaning: 'the `X-Api-Key` is unknown or revoked',
    fix: "check the header's value; ask the operator for a new key",
  },
  SESSION_EXPIRED: {
    status: '401',
    meaning: 'the session cookie is unknown, expired (8 hours), or ended by a password reset or a deactivation',
    fix: 'log in again (`token.do`, then `login.do`)',
  },
  ACCOUNT_INACTIVE: {
    status: '401',
    meaning: 'the credential is right, the account is deactivated',
    fix: 'ask the operator to reactivate the account',
  },
  UNAUTHENTICATED: {
    status: '401',
    meaning: '`token.do`: the user name or password is wrong, or the account inactive (one answer for all)',
    fix: 'check both',
  },
  REQUEST_REPLAYED: {
    status: '401',
    meaning: 'a signed write identical to one already received under the same timestamp',
    fix: 'sign it again with a new timestamp',
  },
  INVALID_API_KEY: {
    status: '403',
    meaning: 'API Gateway does not know the key for metering',
    fix: 'ask the operator to register the key',
  },
  PERMISSION_REQUIRED: {
    status: '403',
    meaning: 'the caller lacks the permission named in `permission`',
    fix: 'ask the administrator for the permission',
  },
  NO_ACCESS: {
    status: '403',
    meaning: 'the caller holds no share (or no `UPDATE` share) on the entity',
    fix: 'ask for a share on the entity or an ancestor',
  },
  NOT_FOUND: {
    status: '404',
    meaning: 'no such route, entity or record',
    fix: 'check the path and the id',
  },
  LIMITS_NOT_SET: {
    status: '404',
    meaning: 'the entity has no limits (or no per-action limit for the action) to change or reset',
    fix: 'create the limits with `set.do` first',
  },
  METHOD_NOT_ALLOWED: {
    status: '405',
    meaning: 'the path exists, with other methods (local server; API Gateway answers 404)',
    fix: 'use a method the `Allow` header names',
  },
  IDEMPOTENCY_KEY_IN_USE: {
    status: '409',
    meaning: 'a write with this `Idempotency-Key` is still being processed',
    fix: 'retry after `Retry-After` for its answer',
  },
  BODY_TOO_LARGE: {
    status: '413',
    meaning: 'the request body is over 1 MiB',
    fix: 'send less, in several requests',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: '422',
    meaning: 'this `Idempotency-Key` was used within 24 hours for a different request',
    fix: 'use a new key for a new request',
  },
  RATE_LIMITED: {
    status: '429',
    meaning: "over the usage plan's rate or quota",
    fix: 'wait `Retry-After` seconds, with backoff; watch `RateLimit`',
  },
  HEADERS_TOO_LARGE: {
    status: '431',
    meaning: 'the request headers are too large',
    fix: 'send fewer or shorter headers and cookies',
  },
  REQUEST_REFUSED: {
    status: '4xx',
    meaning:
      'API Gateway refused the request before it reached the service (the local server: `403` for a request a web page of another origin sent, or one whose `Host` does not name the machine, [local-server.md](local-server.md#requests-from-web-pages))',
    fix: 'read `message`; quote `requestId`',
  },
  INTERNAL_ERROR: {
    status: '500',
    meaning: 'a fault of the service',
    fix: 'quote `requestId` to the operator',
  },
  NOT_IMPLEMENTED: {
    status: '501',
    meaning: 'the route exists but is not built',
    fix: 'none yet',
  },
  SERVICE_BUSY: {
    status: '503',
    meaning: 'a dependency is busy or unavailable; nothing was changed',
    fix: 'send the same request again after `Retry-After`',
  },
  AUTH_UNAVAILABLE: {
    status: '503',
    meaning: 'credentials could not be checked right now; nothing was changed',
    fix: 'send the same request again after `Retry-After`',
  },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes answered with `status`, in the list's order, each in backticks: for the texts that name them. */
export const codesOfStatus = (status: ErrorCodeEntry['status'], except: readonly ErrorCode[] = []): string =>
  (Object.entries(ERROR_CODES) as [ErrorCode, ErrorCodeEntry][])
    .filter(([code, entry]) => entry.status === status && !except.includes(code))
    .map(([code]) => `\`${code}\``)
    .join(', ');

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
