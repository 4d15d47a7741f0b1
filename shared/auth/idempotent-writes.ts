import type { APIGatewayProxyResult } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { claimRequest, completeItem, releaseRequest, takeOverRequest } from '../adapters/dynamodb/idempotency-store';
import type { TransactItem } from '../adapters/dynamodb/attribute-values';
import type { TableStore } from '../adapters/dynamodb/table-store';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY, REPLAYED_HEADER } from '../api/idempotency-headers';
import { sha256Hex } from '../domain/auth/crypto';
import { WriteConflict } from '../domain/errors';
import { ApiError, badRequest } from '../http/api-error';
import { idempotencyKey, type ItemKey } from '../table/keys';
import { canonicalRequest, type SignedRequest } from './hash-replay';

/** The header's value: a structured-field string (`"…"`, as the IETF draft writes it) or the same text bare. */
export const readIdempotencyKey = (value: string | undefined): string | undefined => {
  if (value === undefined) return undefined;
  const text = value.trim();
  const key = text.startsWith('"') && text.endsWith('"') && text.length >= 2 ? text.slice(1, -1) : text;
  if (!IDEMPOTENCY_KEY.test(key))
    throw badRequest({
      [IDEMPOTENCY_HEADER]: 'must be 1 to 255 visible ASCII characters (no quote or backslash), as "…" or bare',
    });
  return key;
};

/** What the request asks for, its credentials aside: a retry signed with a new timestamp is the same request. */
const fingerprintOf = (request: SignedRequest): string =>
  sha256Hex(
    JSON.stringify([
      canonicalRequest(request),
      ...['output', 'json', 'callback'].map((name) => request.parameters.all(name)),
    ]),
  );

/** A write under a claimed key: its answer is stored with the write (`commitItem`) or just after it (`settle`). */
export interface IdempotentWrite {
  /**
   * The same for every attempt of this request under this key within its 24 hours (the caller, the key, the key's
   * first claim): a write that cannot store its answer with it names what it writes by it, so a retry writes the same.
   */
  retryId: string;
  /** The transaction item storing `answer` with the write it answers, so that a lost answer is never lost twice. */
  commitItem(answer: APIGatewayProxyResult): TransactItem;
  /** Stores the answer of a write that did not store it in its own transaction. */
  settle(answer: APIGatewayProxyResult): Promise<void>;
  /** Lets the key go after a failure that changed nothing; a no-op once the answer is stored. */
  release(): Promise<void>;
}

const storedAnswer = (current: Record<string, unknown>): APIGatewayProxyResult => ({
  statusCode: Number(current.statusCode),
  headers: {
    ...(JSON.parse(String(current.headers ?? '{}')) as Record<string, string>),
    [REPLAYED_HEADER]: 'true',
  },
  body: String(current.body ?? ''),
});

const keyInUse = () =>
  new ApiError(
    409,
    'A request with this Idempotency-Key is still being processed; retry after Retry-After seconds for its answer',
    { headers: { 'Retry-After': '1' }, code: 'IDEMPOTENCY_KEY_IN_USE' },
  );

const keyReused = () =>
  new ApiError(
    422,
    'This Idempotency-Key was used within 24 hours for a different request: use a new key for a new request',
    { code: 'IDEMPOTENCY_KEY_REUSED' },
  );

type Claimed = { claim: string; validUntil: number };

/**
 * The key claimed for this request: a fresh claim, or a claim left by an invocation that died taken over (its
 * first `validUntil` kept). Otherwise the stored answer, 422 for another request under the key, or 409 in flight.
 */
const claimKey = async (
  store: TableStore,
  { itemKey, fingerprint, now }: { itemKey: ItemKey; fingerprint: string; now: Date },
): Promise<{ stored: APIGatewayProxyResult } | { claimed: Claimed }> => {
  const claim = randomUUID();
  try {
    const put = claimRequest(itemKey, fingerprint, claim, now);
    await store.put(put);
    return { claimed: { claim, validUntil: Number(put.Item!.validUntil) } };
  } catch (error) {
    if (!(error instanceof WriteConflict)) throw error;
    const current = error.current ?? {};
    if (current.fingerprint !== undefined && current.fingerprint !== fingerprint) throw keyReused();
    if (current.state === 'done') return { stored: storedAnswer(current) };
    if (current.claim === undefined || Number(current.lockedUntil) >= now.getTime()) throw keyInUse();
    try {
      await store.update(takeOverRequest(itemKey, { left: String(current.claim), claim }, now));
    } catch (lost) {
      // another retry took it over first
      if (lost instanceof WriteConflict) throw keyInUse();
      throw lost;
    }
    return { claimed: { claim, validUntil: Number(current.validUntil) } };
  }
};

/**
 * The IETF draft's Idempotency-Key for a write, per caller: the same key and request within 24 hours answer the
 * stored answer and write nothing; the same key with another request is 422; while the first is in flight, 409.
 * Only a success is stored: a failure changed nothing, and releases the key.
 */
export const beginIdempotentWrite = async (
  store: TableStore,
  { userId, key, request, now }: { userId: number; key: string; request: SignedRequest; now: Date },
): Promise<{ stored: APIGatewayProxyResult } | { write: IdempotentWrite }> => {
  const itemKey = idempotencyKey(userId, sha256Hex(key));
  const fingerprint = fingerprintOf(request);
  const begun = await claimKey(store, { itemKey, fingerprint, now });
  if ('stored' in begun) return begun;
  const { claim, validUntil } = begun.claimed;
  const committed = new WeakSet<APIGatewayProxyResult>();
  const item = (answer: APIGatewayProxyResult) =>
    completeItem(store.tableName, itemKey, {
      fingerprint,
      claim,
      validUntil,
      statusCode: answer.statusCode,
      headers: answer.headers as Record<string, string>,
      body: answer.body,
    });
  return {
    write: {
      retryId: sha256Hex(`${itemKey.PK}#${validUntil}`),
      commitItem: (answer) => {
        committed.add(answer);
        return item(answer);
      },
      settle: async (answer) => {
        if (!committed.has(answer)) await store.put(item(answer).Put!);
      },
      release: async () => {
        await store.delete(releaseRequest(itemKey, claim)).catch((error: unknown) => {
          if (!(error instanceof WriteConflict)) throw error;
        });
      },
    },
  };
};
