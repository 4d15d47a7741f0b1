import { ACTION_COUNTER_PREFIX, COUNTER_SHARD_PREFIX, COUNTERS_SK } from '../../shared/table/keys';
import { NEAR_CAP_ATTRIBUTE } from '../../shared/table/stream-trigger';

/**
 * The table stream's records of counter writes (an entity's `COUNTERS` and shards `COUNTERS#…`, an action's
 * `ACTCTR#…`) that may have made a counter reach a cap (their new image marked `xr`), for the trigger that turns a
 * write reaching a cap it stored into a LimitReached event; the writes that proved they did not are left in the
 * stream. It rides the LimitChanged trigger: a stream shard serves at most two readers at once, and a second trigger
 * would take the other one.
 */
export const COUNTER_WRITES_PATTERN = {
  eventName: ['INSERT', 'MODIFY'],
  dynamodb: {
    Keys: { SK: { S: [COUNTERS_SK, { prefix: COUNTER_SHARD_PREFIX }, { prefix: ACTION_COUNTER_PREFIX }] } },
    NewImage: { [NEAR_CAP_ATTRIBUTE]: { BOOL: [true] } },
  },
};
