import { ENTITY_TYPES, type EntityType } from '../levels';
import { isShardCount, MAX_SHARDS, MIN_SHARDS } from './counter-shards';

export interface ShardRequest {
  type: EntityType;
  id: number;
  shards: number;
}

/** `{type: "advertiser", id: 1, shards: 16}` (any case of type) as a request to shard, or what is wrong. Pure. */
export const parseShardRequest = (
  value: { type?: unknown; id?: unknown; shards?: unknown } | null | undefined,
): { ok: true; request: ShardRequest } | { ok: false; errors: Record<string, string> } => {
  const type = String(value?.type ?? '').toUpperCase() as EntityType;
  const id = Number(value?.id);
  const shards = Number(value?.shards);
  const errors: Record<string, string> = {};
  if (!ENTITY_TYPES.includes(type)) errors.type = `must be one of ${ENTITY_TYPES.join(', ').toLowerCase()}`;
  if (!Number.isSafeInteger(id) || id < 1) errors.id = 'must be a positive whole number';
  if (!isShardCount(shards)) errors.shards = `must be a whole number from ${MIN_SHARDS} to ${MAX_SHARDS}`;
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, request: { type, id, shards } };
};
