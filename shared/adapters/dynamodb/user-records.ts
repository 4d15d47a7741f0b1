import { apiKeyKey, emailKey, userHashVerifierKey, userProfileKey, usernameKey } from '../../table/keys';
import type { Item, TableStore } from './table-store';
import type { UpdateInput } from './attribute-values';
import { allOf, attributeAbsent, attributeExists, UpdateBuilder } from './expressions';

/** The stored profile of a user, as the catalog importer and password reset write it. */
export interface UserProfile {
  userId: number;
  username: string;
  email?: string;
  role: string;
  active: boolean;
  passwordHash: string;
  permissions: Record<string, string>;
  inventoryPermissions: Record<string, string>;
  /** Sessions created before this instant (ms) are revoked. */
  sessionsValidAfter?: number;
  /** The user's own metering key (an API Gateway key value, no credential), made by `npm run api-key`. */
  usageKey?: string;
  /** SHA-256 of the newest password-reset token: only that link works. */
  newestResetToken?: string;
}

const asProfile = (item: Item | undefined): UserProfile | undefined =>
  item ? (item as unknown as UserProfile) : undefined;

export const getProfile = async (store: TableStore, userId: number): Promise<UserProfile | undefined> =>
  asProfile(await store.get(userProfileKey(userId)));

/** User ids are positive: no user has this one. Read in place of an unknown user's, so that a refusal costs the reads an acceptance does. */
export const NO_SUCH_USER_ID = 0;

export const userIdByUsername = async (store: TableStore, username: string): Promise<number | undefined> => {
  const item = await store.get(usernameKey(username));
  return item ? Number(item.userId) : undefined;
};

export const userIdByApiKeyDigest = async (store: TableStore, digest: string): Promise<number | undefined> => {
  const item = await store.get(apiKeyKey(digest));
  return item ? Number(item.userId) : undefined;
};

/** Profile and the hash-authentication verifier in one request. */
export const getProfileAndVerifier = async (
  store: TableStore,
  userId: number,
): Promise<{ profile?: UserProfile; verifier?: string }> => {
  const items = await store.batchGet([userProfileKey(userId), userHashVerifierKey(userId)]);
  return {
    profile: asProfile(items.find((item) => item.SK === 'PROFILE')),
    verifier: items.find((item) => item.SK === 'HASH_VERIFIER')?.md5 as string | undefined,
  };
};

export const userIdByEmail = async (store: TableStore, email: string): Promise<number | undefined> => {
  const item = await store.get(emailKey(email));
  return item ? Number(item.userId) : undefined;
};

/** Gives an existing user its metering key, only if it has none yet. */
export const usageKeyRequest = (userId: number, usageKey: string): UpdateInput => ({
  Key: userProfileKey(userId),
  ...new UpdateBuilder()
    .set('usageKey', usageKey)
    .require(allOf(attributeExists('PK'), attributeAbsent('usageKey')))
    .build(),
});
