import type { APIGatewayProxyResult } from 'aws-lambda';
import { SESSION_COOKIE } from '../../shared/api/session-cookie';
import { isTokenText, randomToken, sha256Hex } from '../../shared/domain/auth/crypto';
import { consumeOnce, expiringItem, SESSION_LIFETIME_MS } from '../../shared/adapters/dynamodb/one-time-items';
import { badRequest } from '../../shared/http/api-error';
import type { OperationHandler } from '../../shared/pipeline/family-handler';
import { optionalBoolean } from '../../shared/http/parameter-checks';
import { isValidCallback, jsonpBody } from '../../shared/http/jsonp';
import { jsonResponse } from '../../shared/http/response';
import type { Ports } from '../../shared/runtime/dependencies';
import { loginTokenKey, sessionKey } from '../../shared/table/keys';
import { getProfile } from '../../shared/adapters/dynamodb/user-records';
import { credentialStands } from '../../shared/domain/auth/credential-validity';

export const REDIRECT_URL = '/index.do';

type Outcome = { success: true; redirectUrl: string; cookie: string } | { success: false; error: string };

const render = (outcome: Outcome, callback: string | undefined, json: boolean): APIGatewayProxyResult => {
  const body = outcome.success
    ? { success: true, redirectUrl: outcome.redirectUrl }
    : { success: false, error: outcome.error, message: outcome.error, code: 'NOT_FOUND' };
  const cookie: Record<string, string> = outcome.success ? { 'Set-Cookie': outcome.cookie } : {};
  if (callback) {
    // a script tag cannot read a status, so JSONP failures are 200 with the result inside the callback
    return {
      statusCode: 200,
      headers: {
        'Content-Type': 'application/javascript; charset=utf-8',
        'X-Content-Type-Options': 'nosniff',
        ...cookie,
      },
      body: jsonpBody(callback, body),
    };
  }
  if (!outcome.success) return jsonResponse(404, body);
  if (json) return jsonResponse(200, body, cookie);
  return { statusCode: 302, headers: { Location: outcome.redirectUrl, ...cookie }, body: '' };
};

/** GET /rest-api/auth/{authToken}/login.do: consumes the one-time token and opens a session. */
export const login =
  ({ store, clock }: Ports<'store' | 'clock'>): OperationHandler =>
  async ({ parameters, pathParameters }) => {
    const callback = parameters.get('callback');
    if (callback !== undefined && !isValidCallback(callback))
      throw badRequest({
        callback:
          'must be a plain JavaScript identifier path (letters, digits, _, $ and dots) of at most 64 characters',
      });
    const json = optionalBoolean(parameters, 'json') ?? false;
    const token = pathParameters.authToken ?? '';
    if (!isTokenText(token))
      return render({ success: false, error: 'Malformed token: expected 32 hex characters' }, callback, json);
    const now = clock.now();
    const consumed = await consumeOnce(store, loginTokenKey(sha256Hex(token.toLowerCase())), now);
    if (consumed.status === 'expired') return render({ success: false, error: 'Token expired' }, callback, json);
    if (consumed.status === 'unknown')
      return render({ success: false, error: 'Unknown or already used token' }, callback, json);
    // a token issued before the last password reset, or for a user no longer active, opens nothing
    const profile = await getProfile(store, Number(consumed.item.userId));
    if (!credentialStands(profile, Number(consumed.item.createdAt)))
      return render({ success: false, error: 'Unknown or already used token' }, callback, json);
    const sessionId = randomToken();
    await store.put({
      Item: expiringItem(sessionKey(sha256Hex(sessionId)), now, SESSION_LIFETIME_MS, { userId: consumed.item.userId }),
    });
    const cookie = `${SESSION_COOKIE}=${sessionId}; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=${SESSION_LIFETIME_MS / 1000}`;
    return render({ success: true, redirectUrl: REDIRECT_URL, cookie }, callback, json);
  };
