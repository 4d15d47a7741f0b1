import { SESSION_COOKIE } from '../api/session-cookie';
import { CREDENTIAL_PARAMETERS, headerValue } from '../http/parameters';

export type Credentials =
  | { kind: 'apiKey'; key: string }
  | { kind: 'hash'; username: string; timestamp: string; hash: string }
  | { kind: 'session'; sessionId: string };

export const cookieValue = (cookieHeader: string | undefined, name: string): string | undefined => {
  for (const part of (cookieHeader ?? '').split(';')) {
    const equals = part.indexOf('=');
    if (equals > 0 && part.slice(0, equals).trim() === name) return part.slice(equals + 1).trim();
  }
  return undefined;
};

type Lookup = (name: string) => string | undefined;

/** The hash parameters when all three are present. */
export const hashCredentials = (read: Lookup): Credentials | undefined => {
  const [username, timestamp, hash] = CREDENTIAL_PARAMETERS.map(read);
  return username && timestamp && hash ? { kind: 'hash', username, timestamp, hash } : undefined;
};

/**
 * The credential a request carries where API Gateway's authorizer can see it, in order of precedence:
 * the X-Api-Key header, the hash parameters in the query string, the session cookie.
 */
export const visibleCredentials = (
  headers: Record<string, string | undefined> | null | undefined,
  query: Record<string, string | undefined> | null | undefined,
): Credentials | undefined => {
  const apiKey = headerValue(headers, 'x-api-key');
  if (apiKey) return { kind: 'apiKey', key: apiKey };
  const hash = hashCredentials((name) => query?.[name]);
  if (hash) return hash;
  const sessionId = cookieValue(headerValue(headers, 'cookie'), SESSION_COOKIE);
  return sessionId ? { kind: 'session', sessionId } : undefined;
};
