import type { Clock } from '../ports/clock';
import { unauthorized } from '../http/api-error';
import { sessionKey } from '../table/keys';
import type { TableStore } from '../adapters/dynamodb/table-store';
import type { Credentials } from './credentials';
import { isTokenText, sha256Hex } from '../domain/auth/crypto';
import { credentialStands } from '../domain/auth/credential-validity';
import { isHashValid, isTimestampFresh } from '../domain/auth/hash-scheme';
import type { AuthenticationMethod, Principal } from './principal';
import {
  getProfile,
  getProfileAndVerifier,
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

const byApiKey = async ({ store }: AuthenticationPorts, key: string): Promise<Principal> => {
  const userId = await userIdByApiKeyDigest(store, sha256Hex(key));
  if (userId === undefined) throw unauthorized(REFUSAL);
  return principalOf(await getProfile(store, userId), 'apiKey');
};

const byHash = async (
  { store, clock }: AuthenticationPorts,
  { username, timestamp, hash }: { username: string; timestamp: string; hash: string },
): Promise<Principal> => {
  const now = clock.now();
  if (!isTimestampFresh(timestamp, now) || username.length > 256 || hash.length > 64) throw unauthorized(REFUSAL);
  const userId = await userIdByUsername(store, username);
  if (userId === undefined) throw unauthorized(REFUSAL);
  const { profile, verifier } = await getProfileAndVerifier(store, userId);
  if (!verifier || !isHashValid(verifier, timestamp, hash)) throw unauthorized(REFUSAL);
  return principalOf(profile, 'hash');
};

const bySession = async ({ store, clock }: AuthenticationPorts, sessionId: string): Promise<Principal> => {
  if (!isTokenText(sessionId)) throw unauthorized(REFUSAL);
  const session = await store.get(sessionKey(sha256Hex(sessionId.toLowerCase())));
  const now = clock.now().getTime();
  if (!session || Number(session.validUntil) <= now) throw unauthorized(REFUSAL);
  const profile = await getProfile(store, Number(session.userId));
  if (!credentialStands(profile, Number(session.createdAt))) throw unauthorized(REFUSAL);
  return principalOf(profile, 'session');
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
