import type { ErrorCode } from '../api/error-codes';
import { HASH_WINDOW_MS } from '../domain/auth/hash-scheme';
import { ApiError } from '../http/api-error';

/**
 * Each way a credential is refused, with what to fix. None tells whether a user name exists: an unknown user and a
 * wrong password are one refusal, and an account's state is told only to a caller who proved the credential.
 */
const refusal = (code: ErrorCode, message: string, now: Date): ApiError =>
  new ApiError(401, message, { extra: { serverTime: now.getTime() }, code });

export const credentialsMissing = (now: Date): ApiError =>
  refusal(
    'CREDENTIALS_MISSING',
    'No credential: send X-Api-Key, the username, timestamp and hash parameters, or the session cookie',
    now,
  );

const WINDOW_SECONDS = HASH_WINDOW_MS / 1000;

/** Why a timestamp is refused, in the words that tell the fix; the server's time and the window named. */
const timestampAdvice = (timestamp: string, now: Date): string => {
  if (!/^\d{1,16}$/.test(timestamp)) return 'The timestamp must be Unix time in milliseconds, in decimal digits';
  if (Math.abs(Number(timestamp) * 1000 - now.getTime()) <= HASH_WINDOW_MS)
    return `The timestamp ${timestamp} looks like seconds: send Unix time in milliseconds (${now.getTime()} now)`;
  const skew = Math.round((Number(timestamp) - now.getTime()) / 1000);
  return `The timestamp ${timestamp} is ${Math.abs(skew)} s ${skew < 0 ? 'behind' : 'ahead of'} the server's time`;
};

export const timestampOutOfWindow = (timestamp: string, now: Date): ApiError =>
  refusal(
    'TIMESTAMP_OUT_OF_WINDOW',
    `${timestampAdvice(timestamp, now)}; it must be within ${WINDOW_SECONDS} s of the server's time, ` +
      `${now.toISOString()} (${now.getTime()} ms). Sign each request with the current time`,
    now,
  );

export const signatureInvalid = (now: Date): ApiError =>
  refusal(
    'SIGNATURE_INVALID',
    'The hash does not verify for this username and timestamp: hash = md5hex(md5hex(password) + timestamp), ' +
      'lower-case hex, with the timestamp exactly as sent',
    now,
  );

export const apiKeyInvalid = (now: Date): ApiError =>
  refusal('API_KEY_INVALID', 'The API key is unknown or revoked: check X-Api-Key, or ask for a new key', now);

export const sessionExpired = (now: Date): ApiError =>
  refusal('SESSION_EXPIRED', 'The session is unknown, expired or ended: log in again for a new session', now);

export const accountInactive = (now: Date): ApiError =>
  refusal('ACCOUNT_INACTIVE', 'The account is deactivated: ask the operator to reactivate it', now);
