import { logger } from '../../shared/observability/logger';

/** One answered request, as the local server's access log tells it. */
export interface AccessEntry {
  method: string;
  /** The request's path, without its query string. */
  path: string;
  /** The matched route's template (`/rest-api/auth/{authToken}/login.do`), when one matched. */
  route?: string;
  /** null when the client hung up before its answer: nothing was sent. */
  status: number | null;
  durationMs: number;
  principalId?: string;
  requestId: string;
}

/** `debug`: the JSON line tools read; `info` (the default): a short line for a person; above: none. */
export type AccessLogStyle = 'json' | 'line' | 'none';

export const accessLogStyle = (level: string | undefined): AccessLogStyle => {
  const wanted = (level ?? '').toLowerCase();
  if (wanted === 'debug') return 'json';
  return ['warn', 'error', 'silent'].includes(wanted) ? 'none' : 'line';
};

/** Path parameters that are credentials: shown as their template's placeholder, never as their value. */
const SECRET_PARAMETERS = ['{authToken}'];
const AUTH_PREFIX = '/rest-api/auth/';

/** The path a person sees: the request's own, unless a credential could travel in it. */
const shownPath = ({ path, route }: AccessEntry): string => {
  if (route) return SECRET_PARAMETERS.some((parameter) => route.includes(parameter)) ? route : path;
  // a path that matched no route may still be a mistyped login link carrying its token
  return path.startsWith(AUTH_PREFIX) ? `${AUTH_PREFIX}…` : path;
};

/** `GET /rest-api/campaign/100/limits.do 200 4.2ms` */
export const conciseLine = (entry: AccessEntry): string =>
  `${entry.method} ${shownPath(entry)} ${entry.status ?? 'aborted by the client'} ${entry.durationMs.toFixed(1)}ms`;

const style = accessLogStyle(process.env.LOG_LEVEL);

/**
 * One line per request. The JSON line is API Gateway's access log: the route's template rather than the path (a
 * login token travels in one), and never a header, query or body, so never a credential.
 */
export const logAccess = (entry: AccessEntry): void => {
  if (style === 'line') process.stdout.write(`${conciseLine(entry)}\n`);
  if (style !== 'json') return;
  logger.debug('request', {
    method: entry.method,
    route: entry.route ?? null,
    status: entry.status,
    ...(entry.status === null ? { aborted: true } : {}),
    durationMs: Math.round(entry.durationMs * 10) / 10,
    ...(entry.principalId ? { principalId: entry.principalId } : {}),
    requestId: entry.requestId,
  });
};
