import { hashPassword, randomToken, sha256Hex, verifyPassword } from '../../shared/domain/auth/crypto';
import { expiringItem, LOGIN_TOKEN_LIFETIME_MS } from '../../shared/adapters/dynamodb/one-time-items';
import { getProfile, NO_SUCH_USER_ID, userIdByUsername } from '../../shared/adapters/dynamodb/user-records';
import { ApiError } from '../../shared/http/api-error';
import type { OperationHandler } from '../../shared/pipeline/family-handler';
import { requiredTexts } from '../../shared/http/parameter-checks';
import { jsonResponse } from '../../shared/http/response';
import type { Ports } from '../../shared/runtime/dependencies';
import { loginTokenKey } from '../../shared/table/keys';

const REFUSAL = 'Invalid username or password';

/** Checked against when the user is unknown, so that every refusal costs one scrypt. */
let decoyHash: Promise<string> | undefined;
const decoy = (): Promise<string> => (decoyHash ??= hashPassword('decoy password that never matches'));

/** POST /rest-api/auth/token.do: username and password for a one-time token. One answer for every refusal. */
export const issueToken =
  ({ store, clock }: Ports<'store' | 'clock'>): OperationHandler =>
  async ({ parameters }) => {
    const { username, password } = requiredTexts(parameters, { username: 256, password: 256 });
    const userId = await userIdByUsername(store, username);
    // an unknown name costs the reads a known one does: how long a refusal takes tells nothing about who exists
    const found = await getProfile(store, userId ?? NO_SUCH_USER_ID);
    const profile = userId === undefined ? undefined : found;
    const matches = await verifyPassword(password, profile?.passwordHash ?? (await decoy()));
    if (!profile || !matches || profile.active !== true)
      throw new ApiError(401, REFUSAL, { extra: { error: REFUSAL } });
    const token = randomToken();
    await store.put({
      Item: expiringItem(loginTokenKey(sha256Hex(token)), clock.now(), LOGIN_TOKEN_LIFETIME_MS, {
        userId: profile.userId,
      }),
    });
    return jsonResponse(200, { success: true, authToken: token, role: profile.role });
  };
