import { WriteConflict } from '../../domain/errors';
import type { DeleteInput } from './attribute-values';
import type { ItemKey } from '../../table/keys';
import type { Item, TableStore } from './table-store';
import { conditionExpression, above, allOf, attributeExists } from './expressions';

export const LOGIN_TOKEN_LIFETIME_MS = 60_000;
export const SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;
export const RESET_TOKEN_LIFETIME_MS = 60 * 60 * 1000;

/**
 * An item that stops being valid at `validUntil` (ms, checked in code, since TTL deletes lazily and DynamoDB
 * Local never does) and is removed by TTL through `expiresAt` (s).
 */
export const expiringItem = (key: ItemKey, now: Date, lifetimeMs: number, fields: Item): Item => ({
  ...key,
  ...fields,
  createdAt: now.getTime(),
  validUntil: now.getTime() + lifetimeMs,
  expiresAt: Math.ceil((now.getTime() + lifetimeMs) / 1000),
});

/** The condition that a one-time item exists and is valid at `now` (ms). */
export const stillValid = (now: number) => conditionExpression(allOf(attributeExists('PK'), above('validUntil', now)));

/** Deletes the item only while it is still valid, and tells what was there either way. */
export const consumeRequest = (key: ItemKey, now: Date): DeleteInput => ({
  Key: key,
  ...stillValid(now.getTime()),
  ReturnValues: 'ALL_OLD',
  ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
});

export type Consumed = { status: 'consumed'; item: Item } | { status: 'expired' } | { status: 'unknown' };

/** Atomically consumes a one-time item: of many concurrent callers exactly one gets `consumed`. */
export const consumeOnce = async (store: TableStore, key: ItemKey, now: Date): Promise<Consumed> => {
  try {
    const item = await store.delete(consumeRequest(key, now));
    return item ? { status: 'consumed', item } : { status: 'unknown' };
  } catch (error) {
    if (error instanceof WriteConflict) return error.current ? { status: 'expired' } : { status: 'unknown' };
    throw error;
  }
};
