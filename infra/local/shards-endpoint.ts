import { entityExists, setShardCount } from '../../shared/adapters/dynamodb/shard-count-change';
import { parseShardRequest } from '../../shared/domain/delivery/shard-request';
import { jsonResponse } from '../../shared/http/response';
import type { Dependencies } from '../../shared/runtime/dependencies';
import { failure as localFailure } from './local-answers';

const failure = (message: string, errors: Record<string, string> = {}) => localFailure(400, message, { errors });

/**
 * `POST /_local/shards` with `{"type":"advertiser","id":1,"shards":16}`: shards the entity's counters, or raises
 * their count; answers the count now and the one before (`from`). A lower count is refused, naming `shards`.
 */
export const shardsEndpoint = (dependencies: Dependencies) => async (body: string) => {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return failure('The body is not valid JSON');
  }
  const parsed = parseShardRequest(value as Parameters<typeof parseShardRequest>[0]);
  if (!parsed.ok) return failure('Send {"type": "advertiser", "id": 1, "shards": 16}', parsed.errors);
  const { type, id, shards } = parsed.request;
  if (!(await entityExists(dependencies.store, type, id)))
    return failure(`There is no ${type.toLowerCase()} ${id}`, { id: `no ${type.toLowerCase()} has this id` });
  const answer = await setShardCount(dependencies.store, type, id, shards);
  if (answer.refused)
    return failure(`The ${type.toLowerCase()} has ${answer.shards} shards, and a shard count is never lowered`, {
      shards: `must be at least ${answer.shards}, the count the ${type.toLowerCase()} has`,
    });
  return jsonResponse(200, { type: type.toLowerCase(), id, shards: answer.shards, from: answer.from });
};
