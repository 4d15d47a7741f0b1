import { ENTITY_TYPES, type EntityType } from '../levels';
import { isShardCount, MAX_SHARDS, MIN_SHARDS } from './counter-shards';

export interface ShardRequest {
  type: EntityType;
  id: number;
  shards: number;
}

/**
 * A whole positive number as sent: a JSON number that is a safe integer, or decimal digits as text (a command
 * line's); never a boolean, a list, hexadecimal, an exponent, a sign or a space, which `Number()` would take.
 */
const wholeNumber = (value: unknown): number | undefined => {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 1 ? value : undefined;
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,15}$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : undefined;
};

/** `{type: "advertiser", id: 1, shards: 16}` (any case of type) as a request to shard, or what is wrong. Pure. */
export const parseShardRequest = (
  value: { type?: unknown; id?: unknown; shards?: unknown } | null | undefined,
): { ok: true; request: ShardRequest } | { ok: false; errors: Record<string, string> } => {
  const type = (typeof value?.type === 'string' ? value.type.toUpperCase() : '') as EntityType;
  const id = wholeNumber(value?.id);
  const shards = wholeNumber(value?.shards);
  const errors: Record<string, string> = {};
  if (!ENTITY_TYPES.includes(type)) errors.type = `must be one of ${ENTITY_TYPES.join(', ').toLowerCase()}`;
  if (id === undefined) errors.id = 'must be a positive whole number';
  if (shards === undefined || !isShardCount(shards))
    errors.shards = `must be a whole number from ${MIN_SHARDS} to ${MAX_SHARDS}`;
  return Object.keys(errors).length > 0 || id === undefined || shards === undefined
    ? { ok: false, errors }
    : { ok: true, request: { type, id, shards } };
};
