import { WriteConflict } from '../../domain/errors';
import { resetRateKey, userHashVerifierKey, userProfileKey, type ItemKey } from '../../table/keys';
import type { DeleteInput, TransactWriteInput, UpdateInput } from './attribute-values';
import {
  conditionExpression,
  allOf,
  anyOf,
  atMost,
  attributeAbsent,
  attributeExists,
  equals,
  UpdateBuilder,
} from './expressions';
import { stillValid } from './one-time-items';
import type { TableStore } from './table-store';

/** A claim of an address's next reset mail at `now` (ms), unless its last one was sent after `cutoff` (ms). */
export interface ResetMailClaim {
  now: number;
  cutoff: number;
  /** When the claim's item expires (s). */
  expiresAt: number;
}

/** Claims an address's next reset mail (see `ResetMailClaim`). */
export const claimResetMailRequest = (key: ItemKey, { now, cutoff, expiresAt }: ResetMailClaim): UpdateInput => ({
  Key: key,
  ...new UpdateBuilder()
    .set('lastSentAt', now)
    .set('expiresAt', expiresAt)
    .require(anyOf(attributeAbsent('lastSentAt'), atMost('lastSentAt', cutoff)))
    .build(),
});

/** Takes back the claim made at `now`, if it is still the address's last one. */
export const releaseResetMailRequest = (key: ItemKey, now: number): DeleteInput => ({
  Key: key,
  ...conditionExpression(equals('lastSentAt', now)),
});

/**
 * Claims the next reset mail of the address whose digest is `addressDigest`; undefined while the last one was
 * sent after the claim's `cutoff`, else a release that takes the claim back (for a mail that was not sent).
 */
export const claimResetMail = async (
  store: TableStore,
  addressDigest: string,
  claim: ResetMailClaim,
): Promise<(() => Promise<void>) | undefined> => {
  const key = resetRateKey(addressDigest);
  const { now } = claim;
  try {
    await store.update(claimResetMailRequest(key, claim));
  } catch (error) {
    if (error instanceof WriteConflict) return undefined;
    throw error;
  }
  // an older entry, if any, was past the gap: deleting ours restores what it allowed
  return async () => {
    await store.delete(releaseResetMailRequest(key, now)).catch((error: unknown) => {
      if (!(error instanceof WriteConflict)) throw error;
    });
  };
};

/** Names the user's newest reset token: only that link works. */
export const newestResetTokenRequest = (userId: number, digest: string): UpdateInput => ({
  Key: userProfileKey(userId),
  ...new UpdateBuilder().set('newestResetToken', digest).build(),
});

export interface PasswordChange {
  tokenKey: ItemKey;
  /** The token's digest, which the profile must still name as its newest. */
  digest: string;
  userId: number;
  passwordHash: string;
  /** The hash-authentication verifier of the new password. */
  verifier: string;
  now: number;
}

/**
 * Consumes the reset token and sets the password, its verifier and the session cut-off in one transaction, so that
 * every older session is revoked; a WriteConflict when the token is used or expired or no longer the newest.
 */
export const changePasswordTransaction = (tableName: string, change: PasswordChange): TransactWriteInput => ({
  TransactItems: [
    { Delete: { TableName: tableName, Key: change.tokenKey, ...stillValid(change.now) } },
    {
      Update: {
        TableName: tableName,
        Key: userProfileKey(change.userId),
        ...new UpdateBuilder()
          .set('passwordHash', change.passwordHash)
          .set('sessionsValidAfter', change.now)
          .remove('newestResetToken')
          .require(allOf(attributeExists('PK'), equals('newestResetToken', change.digest)))
          .build(),
      },
    },
    {
      Put: {
        TableName: tableName,
        Item: { ...userHashVerifierKey(change.userId), userId: change.userId, md5: change.verifier },
      },
    },
  ],
});
