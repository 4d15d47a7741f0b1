/** The stable, machine-readable `code` of every error envelope, listed in the OpenAPI document. */
export const ERROR_CODES = {
  INVALID_PARAMETER: 'A parameter is missing or malformed; `errors` names each one. Nothing was changed.',
  UNAUTHENTICATED: 'No credential, or a bad, stale or expired one.',
  REQUEST_REPLAYED:
    'A signed write identical to one already received under the same timestamp; sign it again with a new timestamp.',
  PERMISSION_REQUIRED: 'The caller lacks the permission named in `permission`.',
  NO_ACCESS: 'The caller holds no share (or no UPDATE share) on the entity.',
  NOT_FOUND: 'No such route, entity or record.',
  LIMITS_NOT_SET: 'The entity has no limits (or no per-action limit for the action) to change or reset.',
  METHOD_NOT_ALLOWED: 'The path exists, with other methods.',
  BODY_TOO_LARGE: 'The request body is over 1 MiB.',
  HEADERS_TOO_LARGE: 'The request headers are too large.',
  RATE_LIMITED: "Over the usage plan's rate or quota; retry later, with backoff.",
  INTERNAL_ERROR: 'A fault of the service; the answer carries `requestId` for the operator.',
  NOT_IMPLEMENTED: 'The route exists but is not built.',
  SERVICE_BUSY: 'A dependency is busy or unavailable; retry after `Retry-After`. Nothing was changed.',
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
    413: 'BODY_TOO_LARGE',
    429: 'RATE_LIMITED',
    431: 'HEADERS_TOO_LARGE',
    501: 'NOT_IMPLEMENTED',
    503: 'SERVICE_BUSY',
  };
  return byStatus[statusCode] ?? (statusCode >= 500 ? 'INTERNAL_ERROR' : 'INVALID_PARAMETER');
};
