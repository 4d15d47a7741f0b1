import type { ItemKey } from '../../table/keys';
import type { DeleteInput, PutInput, TransactItem } from './attribute-values';
import { allOf, anyOf, attributeAbsent, below, conditionExpression, equals } from './expressions';

/** How long a stored answer is kept, and how long a claim holds before another request may take it over. */
export const IDEMPOTENCY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Longer than any invocation (API Gateway waits 29 s): a claim older than this was left by one that died. */
export const CLAIM_LIFETIME_MS = 60_000;

export interface IdempotencyRecord {
  state: 'pending' | 'done';
  fingerprint: string;
  claim: string;
  validUntil: number;
  lockedUntil?: number;
  statusCode?: number;
  headers?: string;
  body?: string;
}

const expiry = (now: Date) => {
  const validUntil = now.getTime() + IDEMPOTENCY_LIFETIME_MS;
  return { validUntil, expiresAt: Math.ceil(validUntil / 1000) };
};

/**
 * Claims a key for one request: when no answer is stored under it, its 24 hours are over, or a claim was left by an
 * invocation that died. A conflict hands back what is there.
 */
export const claimRequest = (key: ItemKey, fingerprint: string, claim: string, now: Date): PutInput => ({
  Item: {
    ...key,
    state: 'pending',
    fingerprint,
    claim,
    lockedUntil: now.getTime() + CLAIM_LIFETIME_MS,
    ...expiry(now),
  },
  ...conditionExpression(
    anyOf(
      attributeAbsent('PK'),
      below('validUntil', now.getTime()),
      allOf(equals('state', 'pending'), below('lockedUntil', now.getTime())),
    ),
  ),
  ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
});

/** The answer stored under a claimed key, on condition that the claim is still this request's. */
export const completeItem = (
  tableName: string,
  key: ItemKey,
  done: { fingerprint: string; claim: string; statusCode: number; headers: Record<string, string>; body: string },
  now: Date,
): TransactItem => ({
  Put: {
    TableName: tableName,
    Item: { ...key, ...done, state: 'done', headers: JSON.stringify(done.headers), ...expiry(now) },
    ...conditionExpression(equals('claim', done.claim)),
  },
});

/** Lets the key go when the request failed and changed nothing, so that it may be sent again. */
export const releaseRequest = (key: ItemKey, claim: string): DeleteInput => ({
  Key: key,
  ...conditionExpression(allOf(equals('claim', claim), equals('state', 'pending'))),
});
