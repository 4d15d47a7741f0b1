import type { TableStore } from '../adapters/dynamodb/table-store';
import { sha256Hex } from '../domain/auth/crypto';
import { HASH_WINDOW_MS } from '../domain/auth/hash-scheme';
import { WriteConflict } from '../domain/errors';
import { ApiError } from '../http/api-error';
import { ARRAY_PARAMETERS, CREDENTIAL_PARAMETERS, type Parameters } from '../http/parameters';
import { hashUseKey } from '../table/keys';

/** Methods whose replay would change something: an identical one inside the window is refused. */
const GUARDED_METHODS: ReadonlySet<string> = new Set(['POST', 'DELETE']);

/** Left out of the canonical form: the credentials are in the guard's key, and the others only shape the answer. */
const NOT_THE_REQUEST: ReadonlySet<string> = new Set([...CREDENTIAL_PARAMETERS, 'output', 'json', 'callback']);

/** A whole number as the handlers read it: `0122` and `122` are one id, one cap. */
const canonicalValue = (value: string): string => (/^\d+$/.test(value) ? BigInt(value).toString() : value);

/** The distinct values of a parameter, sorted: repeating or reordering them asks for the same thing. */
const canonicalValues = (parameters: Parameters, name: string): string[] => {
  const values = ARRAY_PARAMETERS.has(name) ? parameters.list(name) : parameters.all(name);
  return [...new Set(values.map(canonicalValue))].sort();
};

/** What is signed, whatever the client's spelling of it. */
export interface SignedRequest {
  method: string;
  /** The route's template (`/rest-api/campaign/{campaignId}/limits/set.do`), never the path as written. */
  route: string;
  pathParameters: Readonly<Record<string, string>>;
  parameters: Parameters;
}

/**
 * The canonical form of a signed request: method, route template, path parameters with numeric ids as numbers, and
 * the decoded parameters sorted by name with their distinct values sorted. The credential parameters are left out
 * (the key of the guard holds the user and the timestamp, and the hash is theirs, in whatever letter case it came),
 * and so are those that only shape the answer (`output`, `json`, `callback`).
 */
export const canonicalRequest = ({ method, route, pathParameters, parameters }: SignedRequest): string =>
  JSON.stringify([
    method.toUpperCase(),
    route,
    Object.keys(pathParameters)
      .sort()
      .map((name) => [name, canonicalValue(pathParameters[name]!)]),
    parameters
      .names()
      .filter((name) => !NOT_THE_REQUEST.has(name))
      .sort()
      .map((name) => [name, canonicalValues(parameters, name)]),
  ]);

/** Forgets a recorded write, so that the identical request may be sent again. */
export type ReleaseReplayGuard = () => Promise<void>;

/** 401 with its own code: the credentials were good, the request was already applied. */
export const requestReplayed = (): ApiError =>
  new ApiError(
    401,
    'This signed request was already received. Sign it again with a new timestamp to repeat it: an identical write ' +
      'under one timestamp is applied once.',
    { code: 'REQUEST_REPLAYED' },
  );

/**
 * Replay protection of hash authentication. Real clients compute the timestamp to the second, so one
 * `(username, timestamp, hash)` authenticates several different requests; what is refused is the same write
 * again (the same canonical request) inside the ±5-minute window. Reads may repeat: they change nothing.
 * The caller releases the guard when the operation fails (a 4xx or 5xx changes nothing), so a client may retry a
 * throttled write; a write that succeeded, or whose function timed out after the guard, stays recorded.
 */
export const refuseHashReplay = async (
  store: TableStore,
  userId: number,
  request: SignedRequest,
  now: Date,
): Promise<ReleaseReplayGuard | undefined> => {
  const timestamp = request.parameters.get('timestamp');
  if (!GUARDED_METHODS.has(request.method.toUpperCase()) || timestamp === undefined) return undefined;
  const key = hashUseKey(userId, timestamp, sha256Hex(canonicalRequest(request)));
  try {
    await store.insert({ ...key, expiresAt: Math.ceil((now.getTime() + 2 * HASH_WINDOW_MS) / 1000) });
  } catch (error) {
    if (error instanceof WriteConflict) throw requestReplayed();
    throw error;
  }
  return async () => {
    await store.delete({ Key: key });
  };
};
