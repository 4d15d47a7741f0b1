import type { ItemKey } from '../../table/keys';
import type { DeleteInput, PutInput, TransactItem, UpdateInput } from './attribute-values';
import { allOf, anyOf, attributeAbsent, below, conditionExpression, equals, UpdateBuilder } from './expressions';

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
 * Claims a key for one request when no answer is stored under it or its 24 hours are over. A conflict hands back
 * what is there: a stored answer, a claim in flight, or one left by an invocation that died (`takeOverRequest`).
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
  ...conditionExpression(anyOf(attributeAbsent('PK'), below('validUntil', now.getTime()))),
  ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
});

/**
 * Takes over a claim left by an invocation that died, keeping the key's first `validUntil`: a retry is the same
 * request within the same 24 hours, so what it derives from the key (a queued reset's id) stays the same.
 */
export const takeOverRequest = (
  key: ItemKey,
  { left, claim }: { left: string; claim: string },
  now: Date,
): UpdateInput => ({
  Key: key,
  ...new UpdateBuilder()
    .set('claim', claim)
    .set('lockedUntil', now.getTime() + CLAIM_LIFETIME_MS)
    .require(allOf(equals('claim', left), equals('state', 'pending'), below('lockedUntil', now.getTime())))
    .build(),
});

/** The answer stored under a claimed key until the key's first `validUntil`, if the claim is still this request's. */
export const completeItem = (
  tableName: string,
  key: ItemKey,
  done: {
    fingerprint: string;
    claim: string;
    validUntil: number;
    statusCode: number;
    headers: Record<string, string>;
    body: string;
  },
): TransactItem => ({
  Put: {
    TableName: tableName,
    Item: {
      ...key,
      ...done,
      state: 'done',
      headers: JSON.stringify(done.headers),
      expiresAt: Math.ceil(done.validUntil / 1000),
    },
    ...conditionExpression(equals('claim', done.claim)),
  },
});

/** Lets the key go when the request failed and changed nothing, so that it may be sent again. */
export const releaseRequest = (key: ItemKey, claim: string): DeleteInput => ({
  Key: key,
  ...conditionExpression(allOf(equals('claim', claim), equals('state', 'pending'))),
});
