import type { ErrorCode } from '../api/error-codes';
import { dictionary } from '../domain/dictionary';
import { echoedName } from '../domain/echoed-name';

/** What an error adds to its status and message; every field may be left out. */
export interface ApiErrorOptions {
  /** The envelope's `errors`: each bad parameter and why. Default: none. */
  errors?: Record<string, string>;
  /** Further fields of the envelope (`permission`, `permissionDenied`, …). Default: none. */
  extra?: Record<string, unknown>;
  /** Headers of the answer (`Retry-After`, `Allow`). Default: none. */
  headers?: Record<string, string>;
  /** The envelope's `code`. Default: the status's own (`errorCodeOf`). */
  code?: ErrorCode;
}

/**
 * An error that is answered to the client as the JSON envelope: `{success:false, code, message, errors?, ...extra}`;
 * `code` is the status's own unless one is named.
 */
export class ApiError extends Error {
  readonly errors?: Record<string, string>;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  readonly code?: ErrorCode;

  constructor(
    readonly statusCode: number,
    message: string,
    { errors, extra = {}, headers = {}, code }: ApiErrorOptions = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.errors = errors;
    this.extra = extra;
    this.headers = headers;
    this.code = code;
  }
}

/** A 400 naming each bad parameter, in `errors` and the message, each name as `echoedName` bounds it. */
export const badRequest = (errors: Record<string, string>, message?: string): ApiError => {
  const echoed = dictionary<string>();
  for (const [name, reason] of Object.entries(errors)) echoed[echoedName(name)] = reason;
  const names = Object.keys(echoed);
  return new ApiError(400, message ?? `Invalid parameter${names.length > 1 ? 's' : ''}: ${names.join(', ')}`, {
    errors: echoed,
  });
};

export const unauthorized = (message = 'Authentication required'): ApiError => new ApiError(401, message);

export const forbidden = (message: string, extra: Record<string, unknown> = {}): ApiError =>
  new ApiError(403, message, { extra });

export const notFound = (message: string, code?: ErrorCode): ApiError => new ApiError(404, message, { code });

export const notImplemented = (): ApiError => new ApiError(501, 'not implemented yet');

/** Too many writers on one record: the caller may simply retry. */
export const busyRecord = (): ApiError =>
  new ApiError(503, 'The record is being changed by many callers at once; retry shortly', {
    headers: { 'Retry-After': '1' },
  });
