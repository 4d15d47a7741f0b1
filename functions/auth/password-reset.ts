import { WriteConflict } from '../../shared/domain/errors';
import { hashPassword, isTokenText, md5Hex, randomToken, sha256Hex } from '../../shared/domain/auth/crypto';
import { expiringItem, RESET_TOKEN_LIFETIME_MS } from '../../shared/adapters/dynamodb/one-time-items';
import { getProfile, userIdByEmail, type UserProfile } from '../../shared/adapters/dynamodb/user-records';
import {
  changePasswordTransaction,
  claimResetMail,
  newestResetTokenRequest,
} from '../../shared/adapters/dynamodb/password-reset-store';
import { badRequest, notFound } from '../../shared/http/api-error';
import type { OperationHandler } from '../../shared/pipeline/family-handler';
import { requiredText } from '../../shared/http/parameter-checks';
import { jsonResponse } from '../../shared/http/response';
import { describeError, logger } from '../../shared/observability/logger';
import { emitMetrics } from '../../shared/observability/metrics';
import type { Ports } from '../../shared/runtime/dependencies';
import { resetTokenKey } from '../../shared/table/keys';

/**
 * At most one reset e-mail per address every 10 minutes (so at most 6 an hour), and only the newest link works. A
 * stranger can therefore neither flood an address nor keep its owner from a working link: the owner either gets a
 * mail at once or already has the newest one, valid for an hour, in the inbox.
 */
export const RESET_MAIL_GAP_MS = 10 * 60_000;
export const MIN_PASSWORD_LENGTH = 10;
/** forgot.do answers no sooner than this, known address or not, so timing tells nothing. */
export const FORGOT_RESPONSE_FLOOR_MS = 250;

const FORGOT_ANSWER = {
  success: true,
  message: 'If the address belongs to an account, a password reset e-mail is on its way.',
};

/**
 * Claims the address's next reset e-mail; undefined while the last one is less than RESET_MAIL_GAP_MS old, else a
 * release that takes the claim back (for a mail that was not sent).
 */
const claimMailSlot = ({ store, clock }: Ports<'store' | 'clock'>, email: string) => {
  const now = clock.now().getTime();
  const expiresAt = Math.ceil((now + RESET_MAIL_GAP_MS) / 1000) + 3600;
  return claimResetMail(store, sha256Hex(email.toLowerCase()), { now, cutoff: now - RESET_MAIL_GAP_MS, expiresAt });
};

const resetMail = (username: string, to: string, link: string) => ({
  to,
  subject: 'Reset your password',
  text: [
    `Hello ${username},`,
    '',
    'Someone asked to reset the password of your Delivery Limits account. If it was you, open this link within one hour:',
    link,
    '',
    'If it was not you, ignore this message; your password stays as it is.',
  ].join('\n'),
});

/** Issues the newest reset link of the user and mails it. */
const mailResetLink = async (
  { store, clock, mailer, config }: Ports<'store' | 'clock' | 'mailer' | 'config'>,
  profile: UserProfile & { email: string },
): Promise<void> => {
  const token = randomToken();
  const digest = sha256Hex(token);
  await store.put({
    Item: expiringItem(resetTokenKey(digest), clock.now(), RESET_TOKEN_LIFETIME_MS, { userId: profile.userId }),
  });
  // only the newest link works: the profile names it
  await store.update(newestResetTokenRequest(profile.userId, digest));
  await mailer.send(
    resetMail(profile.username, profile.email, `${config.appBaseUrl}/reset-password.do?token=${token}`),
  );
};

/**
 * Mails a reset link to an active user's address, at most once every RESET_MAIL_GAP_MS. The gap is claimed only for
 * a mail about to be sent and given back when sending fails, so a failure never keeps the owner waiting; the
 * failure is counted (`PasswordResetMailFailures`), as nobody reads the answer of forgot.do to learn of it.
 */
const sendResetMail = async (
  dependencies: Ports<'store' | 'clock' | 'mailer' | 'config'>,
  email: string,
): Promise<void> => {
  const { store, clock } = dependencies;
  const userId = await userIdByEmail(store, email);
  const profile = userId === undefined ? undefined : await getProfile(store, userId);
  if (!profile?.active || !profile.email) return;
  const release = await claimMailSlot(dependencies, email);
  if (!release) return;
  try {
    await mailResetLink(dependencies, { ...profile, email: profile.email });
  } catch (error) {
    emitMetrics({ PasswordResetMailFailures: 1 }, clock.now());
    await release();
    throw error;
  }
};

const waitUntil = (deadline: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())));

/** POST /rest-api/auth/forgot.do: the same answer, in about the same time, for every address. */
export const forgotPassword =
  (dependencies: Ports<'store' | 'clock' | 'mailer' | 'config'>): OperationHandler =>
  async ({ parameters }) => {
    const deadline = Date.now() + (dependencies.config.forgotResponseFloorMs ?? FORGOT_RESPONSE_FLOOR_MS);
    const email = parameters.get('email')?.trim() ?? '';
    if (email.length > 320) throw badRequest({ email: 'must be at most 320 characters' });
    if (email !== '') {
      // a failed send must not tell the caller anything either
      await sendResetMail(dependencies, email).catch((error) =>
        logger.error('password reset mail failed', describeError(error)),
      );
    }
    await waitUntil(deadline);
    return jsonResponse(200, FORGOT_ANSWER);
  };

/**
 * POST /rest-api/auth/reset-password.do: consumes the reset token and sets the password, its hash-auth
 * verifier and the session cut-off in one transaction, so every older session is revoked.
 */
export const resetPassword =
  ({ store, clock }: Ports<'store' | 'clock'>): OperationHandler =>
  async ({ parameters }) => {
    const token = requiredText(parameters, 'token', 64);
    const password = requiredText(parameters, 'password', 256);
    if (password.length < MIN_PASSWORD_LENGTH)
      throw badRequest({ password: `must be at least ${MIN_PASSWORD_LENGTH} characters` });
    const refusal = notFound('Unknown, used or expired reset token');
    if (!isTokenText(token)) throw refusal;
    const digest = sha256Hex(token.toLowerCase());
    const tokenKey = resetTokenKey(digest);
    const stored = await store.get(tokenKey);
    const now = clock.now().getTime();
    if (!stored || Number(stored.validUntil) <= now) throw refusal;
    const userId = Number(stored.userId);
    if ((await getProfile(store, userId))?.newestResetToken !== digest) throw refusal;
    const passwordHash = await hashPassword(password);
    try {
      await store.transactWrite(
        changePasswordTransaction(store.tableName, {
          tokenKey,
          digest,
          userId,
          passwordHash,
          verifier: md5Hex(password),
          now,
        }),
      );
    } catch (error) {
      if (error instanceof WriteConflict) throw refusal;
      throw error;
    }
    return jsonResponse(200, { success: true, message: 'Password changed; sign in again.' });
  };
