import type { Clock } from '../ports/clock';
import { unauthorized } from '../http/api-error';
import { sessionKey } from '../table/keys';
import type { TableStore } from '../adapters/dynamodb/table-store';
import type { Credentials } from './credentials';
import { isTokenText, sha256Hex } from '../domain/auth/crypto';
import { credentialStands } from '../domain/auth/credential-validity';
import { WarmCache } from '../support/warm-cache';
import { isHashValid, isTimestampFresh } from '../domain/auth/hash-scheme';
import type { AuthenticationMethod, Principal } from './principal';
import {
  getProfile,
  getProfileAndVerifier,
  NO_SUCH_USER_ID,
  userIdByApiKeyDigest,
  userIdByUsername,
  type UserProfile,
} from '../adapters/dynamodb/user-records';

const REFUSAL = 'Invalid or expired credentials';

export interface AuthenticationPorts {
  store: TableStore;
  clock: Clock;
}

const principalOf = (profile: UserProfile | undefined, method: AuthenticationMethod): Principal => {
  if (!profile || profile.active !== true) throw unauthorized(REFUSAL);
  return {
    userId: profile.userId,
    username: profile.username,
    role: profile.role,
    method,
    ...(profile.usageKey ? { usageKey: profile.usageKey } : {}),
  };
};

/** What this container resolved last, for at most WARM_CACHE_TTL_MS; refusals are never kept. */
const warmPrincipals = new WarmCache<Principal>();
const warmHashUsers = new WarmCache<{ profile?: UserProfile; verifier?: string }>();

const byApiKey = async ({ store, clock }: AuthenticationPorts, key: string): Promise<Principal> => {
  const digest = sha256Hex(key);
  return warmPrincipals.through(`${store.tableName}|key|${digest}`, clock, async () => {
    const userId = await userIdByApiKeyDigest(store, digest);
    if (userId === undefined) throw unauthorized(REFUSAL);
    return principalOf(await getProfile(store, userId), 'apiKey');
  });
};

/** Checked against when there is no verifier, so that a refusal computes what an acceptance does. */
const NO_VERIFIER = '0'.repeat(32);

const byHash = async (
  { store, clock }: AuthenticationPorts,
  { username, timestamp, hash }: { username: string; timestamp: string; hash: string },
): Promise<Principal> => {
  const now = clock.now();
  if (!isTimestampFresh(timestamp, now) || username.length > 256 || hash.length > 64) throw unauthorized(REFUSAL);
  // the user and its verifier may be remembered; the hash is checked on every call, replays in the family handler
  const { profile, verifier } = await warmHashUsers.through(`${store.tableName}|user|${username}`, clock, async () => {
    const userId = await userIdByUsername(store, username);
    // an unknown name costs the reads a known one does: how long a refusal takes tells nothing about who exists
    const found = await getProfileAndVerifier(store, userId ?? NO_SUCH_USER_ID);
    if (userId === undefined) throw unauthorized(REFUSAL);
    return found;
  });
  const valid = isHashValid(verifier ?? NO_VERIFIER, timestamp, hash);
  if (!verifier || !valid) throw unauthorized(REFUSAL);
  return principalOf(profile, 'hash');
};

const bySession = async ({ store, clock }: AuthenticationPorts, sessionId: string): Promise<Principal> => {
  if (!isTokenText(sessionId)) throw unauthorized(REFUSAL);
  const digest = sha256Hex(sessionId.toLowerCase());
  const cacheKey = `${store.tableName}|session|${digest}`;
  const known = warmPrincipals.get(cacheKey, clock);
  if (known) return known;
  const session = await store.get(sessionKey(digest));
  const now = clock.now().getTime();
  if (!session || Number(session.validUntil) <= now) throw unauthorized(REFUSAL);
  const profile = await getProfile(store, Number(session.userId));
  if (!credentialStands(profile, Number(session.createdAt))) throw unauthorized(REFUSAL);
  const principal = principalOf(profile, 'session');
  // never past the session's own end
  warmPrincipals.set(cacheKey, principal, clock, Number(session.validUntil));
  return principal;
};

/** Resolves credentials to an active user, or throws a 401. The one module behind the authorizer and the families. */
export const authenticate = (ports: AuthenticationPorts, credentials: Credentials): Promise<Principal> => {
  switch (credentials.kind) {
    case 'apiKey':
      return byApiKey(ports, credentials.key);
    case 'hash':
      return byHash(ports, credentials);
    case 'session':
      return bySession(ports, credentials.sessionId);
  }
};
