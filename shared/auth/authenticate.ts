import type { Clock } from '../ports/clock';
import { sessionKey } from '../table/keys';
import type { TableStore } from '../adapters/dynamodb/table-store';
import type { Credentials } from './credentials';
import { isTokenText, sha256Hex } from '../domain/auth/crypto';
import { credentialStands } from '../domain/auth/credential-validity';
import { WarmCache } from '../support/warm-cache';
import { isHashValid, isTimestampFresh } from '../domain/auth/hash-scheme';
import type { AuthenticationMethod, Principal } from './principal';
import {
  accountInactive,
  apiKeyInvalid,
  sessionExpired,
  signatureInvalid,
  timestampOutOfWindow,
} from './credential-refusals';
import {
  getProfile,
  getProfileAndVerifier,
  NO_SUCH_USER_ID,
  userIdByApiKeyDigest,
  userIdByUsername,
  type UserProfile,
} from '../adapters/dynamodb/user-records';

export interface AuthenticationPorts {
  store: TableStore;
  clock: Clock;
}

/** The principal of a proven credential; an account no longer active is told only to whoever proved it. */
const principalOf = (profile: UserProfile, method: AuthenticationMethod, now: Date): Principal => {
  if (profile.active !== true) throw accountInactive(now);
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
/** A user and its verifier, kept only once a hash verified against them: a name alone tells this cache nothing. */
const provenHashUsers = new WarmCache<{ profile: UserProfile; verifier: string }>();

const byApiKey = async ({ store, clock }: AuthenticationPorts, key: string): Promise<Principal> => {
  const digest = sha256Hex(key);
  return warmPrincipals.through(`${store.tableName}|key|${digest}`, clock, async () => {
    const userId = await userIdByApiKeyDigest(store, digest);
    const profile = userId === undefined ? undefined : await getProfile(store, userId);
    if (!profile) throw apiKeyInvalid(clock.now());
    return principalOf(profile, 'apiKey', clock.now());
  });
};

/** Checked against when there is no verifier, so that a refusal computes what an acceptance does. */
const NO_VERIFIER = '0'.repeat(32);

const byHash = async (
  { store, clock }: AuthenticationPorts,
  { username, timestamp, hash }: { username: string; timestamp: string; hash: string },
): Promise<Principal> => {
  const now = clock.now();
  // judged before any read: the answer is the same whoever the user name names
  if (!isTimestampFresh(timestamp, now)) throw timestampOutOfWindow(timestamp, now);
  if (username.length > 256 || hash.length > 64) throw signatureInvalid(now);
  // A hash that verifies against what this name proved lately is answered from memory. Any other request, known
  // name or not, does the same work: one hash checked here (against a decoy when nothing was proven), the same two
  // reads, one hash checked against what they found. Replays are the family handler's.
  const cacheKey = `${store.tableName}|user|${username}`;
  const proven = provenHashUsers.get(cacheKey, clock);
  if (isHashValid(proven?.verifier ?? NO_VERIFIER, timestamp, hash) && proven)
    return principalOf(proven.profile, 'hash', now);
  const userId = await userIdByUsername(store, username);
  // an unknown name costs the reads a known one does: a user id no one has
  const { profile, verifier } = await getProfileAndVerifier(store, userId ?? NO_SUCH_USER_ID);
  const valid = isHashValid(verifier ?? NO_VERIFIER, timestamp, hash);
  if (userId === undefined || !verifier || !valid || !profile) throw signatureInvalid(now);
  provenHashUsers.set(cacheKey, { profile, verifier }, clock);
  return principalOf(profile, 'hash', now);
};

const bySession = async ({ store, clock }: AuthenticationPorts, sessionId: string): Promise<Principal> => {
  if (!isTokenText(sessionId)) throw sessionExpired(clock.now());
  const digest = sha256Hex(sessionId.toLowerCase());
  const cacheKey = `${store.tableName}|session|${digest}`;
  const known = warmPrincipals.get(cacheKey, clock);
  if (known) return known;
  const session = await store.get(sessionKey(digest));
  const now = clock.now();
  if (!session || Number(session.validUntil) <= now.getTime()) throw sessionExpired(now);
  const profile = await getProfile(store, Number(session.userId));
  // a deactivation or a password reset ends every session: the fix is the same, a new login
  if (!profile || !credentialStands(profile, Number(session.createdAt))) throw sessionExpired(now);
  const principal = principalOf(profile, 'session', now);
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
