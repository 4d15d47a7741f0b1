import type { TableStore } from '../adapters/dynamodb/table-store';
import { sha256Hex } from '../domain/auth/crypto';
import { HASH_WINDOW_MS } from '../domain/auth/hash-scheme';
import { WriteConflict } from '../domain/errors';
import { unauthorized } from '../http/api-error';
import type { Parameters } from '../http/parameters';
import { hashUseKey } from '../table/keys';

/** Methods whose replay would change something: an identical one inside the window is refused. */
const GUARDED_METHODS: ReadonlySet<string> = new Set(['POST', 'DELETE']);

/** Method, path and every parameter (names sorted, values in order): what makes two requests the same request. */
export const requestFingerprint = (method: string, path: string, parameters: Parameters): string =>
  JSON.stringify([
    method,
    path,
    ...parameters
      .names()
      .sort()
      .map((name) => [name, parameters.all(name)]),
  ]);

/** Forgets a recorded write, so that the identical request may be sent again. */
export type ReleaseReplayGuard = () => Promise<void>;

/**
 * Replay protection of hash authentication. Real clients compute the timestamp to the second, so one
 * `(username, timestamp, hash)` authenticates several different requests; what is refused is the same write
 * again (same method, path and parameters) inside the ±5-minute window. Reads may repeat: they change nothing.
 * The caller releases the guard when the operation fails (a 4xx or 5xx changes nothing), so a client may retry a
 * throttled write; a write that succeeded, or whose function timed out after the guard, stays recorded.
 */
export const refuseHashReplay = async (
  store: TableStore,
  userId: number,
  method: string,
  path: string,
  parameters: Parameters,
  now: Date,
): Promise<ReleaseReplayGuard | undefined> => {
  const timestamp = parameters.get('timestamp');
  if (!GUARDED_METHODS.has(method.toUpperCase()) || timestamp === undefined) return undefined;
  const key = hashUseKey(userId, timestamp, sha256Hex(requestFingerprint(method.toUpperCase(), path, parameters)));
  try {
    await store.put({
      Item: { ...key, expiresAt: Math.ceil((now.getTime() + 2 * HASH_WINDOW_MS) / 1000) },
      ConditionExpression: 'attribute_not_exists(PK)',
    });
  } catch (error) {
    if (error instanceof WriteConflict) throw unauthorized('Invalid or expired credentials');
    throw error;
  }
  return async () => {
    await store.delete({ Key: key });
  };
};
