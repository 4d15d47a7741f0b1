import type { ChangeAuthor } from '../history/limit-history';
import { ENTITY_TYPES, type EntityType } from '../levels';

/** A reset asked for by reset.do, applied by the hourly flush. */
export interface ResetRequest {
  entityType: EntityType;
  entityId: number;
  /** The flush drops the reset when the record was deleted (or replaced) meanwhile. */
  limitId: number;
  counters: string[];
  requestedAt: string;
  requestedBy: number;
  /** Who asked, as the change history names them (absent from resets queued before history was recorded). */
  by?: ChangeAuthor;
  /**
   * Unique to this reset, made when it is queued: it is part of the reset's identity, so that a redelivery of it
   * finds it applied while another reset asked in the same millisecond is applied too (absent from older messages).
   */
  resetId?: string;
  /**
   * Set when reset.do was sent with an Idempotency-Key: made from the caller, the key and the key's first claim, so
   * a retry after a lost answer queues the same reset again, and the flush applies it once (it is then the reset's
   * identity). A queue cannot share a transaction with the stored answer: this makes the enqueue idempotent instead.
   */
  retryId?: string;
}

/** A queued message back into a reset request; undefined when it is not one. */
export const parseResetRequest = (body: string): ResetRequest | undefined => {
  try {
    const value = JSON.parse(body) as Partial<ResetRequest>;
    const valid =
      ENTITY_TYPES.includes(value.entityType as EntityType) &&
      Number.isInteger(value.entityId) &&
      Number.isInteger(value.limitId) &&
      Array.isArray(value.counters) &&
      value.counters.every((name) => typeof name === 'string');
    return valid ? (value as ResetRequest) : undefined;
  } catch {
    return undefined;
  }
};
