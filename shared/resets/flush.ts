import type { Clock } from '../ports/clock';
import { loadLimit } from '../adapters/dynamodb/limit-store';
import { describeError, logger } from '../logger';
import { emitMetrics } from '../metrics';
import {
  ACTION_LIMIT_PREFIX,
  actionCounterKey,
  counterKey,
  entityPK,
  noConversionKey,
  type ItemKey,
} from '../table/keys';
import type { EntityType } from '../domain/levels';
import type { TableStore } from '../adapters/dynamodb/table-store';
import { planResetWrites, type ResetTarget, type ResetWrite } from '../domain/resets/reset-writes';
import type { ResetSource } from './reset-queue';

export interface FlushPorts {
  store: TableStore;
  clock: Clock;
  source: ResetSource;
}

export interface FlushResult {
  applied: number;
  /** Resets for records deleted or replaced since they were queued. */
  dropped: number;
  /** Left on the queue to come back (and reach the dead-letter queue after too many tries). */
  failed: number;
}

const RECEIVE_BATCH = 10;

/** The item a planned reset write lands on. */
export const resetWriteKey = (type: EntityType, id: number, target: ResetTarget): ItemKey =>
  target.kind === 'counter'
    ? counterKey(type, id, target.bucket)
    : target.kind === 'action'
      ? actionCounterKey(type, id, target.actionId, target.bucket)
      : noConversionKey(type, id);

const writeRequest = (key: ItemKey, write: ResetWrite) => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(write.values).map(([attribute, value], index) => {
    names[`#a${index}`] = attribute;
    values[`:v${index}`] = value;
    return `#a${index} = :v${index}`;
  });
  if (write.expiresAt !== undefined) {
    sets.push('expiresAt = if_not_exists(expiresAt, :expiresAt)');
    values[':expiresAt'] = write.expiresAt;
  }
  return {
    Key: key,
    UpdateExpression: `SET ${sets.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
};

/** The hourly flush: drains the queue until it is empty or `hasTime` says stop, and applies each reset. */
export const flushResets = async (
  { store, clock, source }: FlushPorts,
  hasTime: () => boolean = () => true,
): Promise<FlushResult> => {
  const result: FlushResult = { applied: 0, dropped: 0, failed: 0 };
  while (hasTime()) {
    const received = await source.receive(RECEIVE_BATCH);
    if (received.length === 0) break;
    const done: string[] = [];
    for (const { receipt, request } of received) {
      if (!request) {
        logger.warn('malformed reset message left for the dead-letter queue', { receipt });
        result.failed++;
        continue;
      }
      try {
        const limit = await loadLimit(store, request.entityType, request.entityId);
        if (!limit || limit.id !== request.limitId) {
          result.dropped++;
        } else {
          const actionIds = (
            await store.queryPartition(entityPK(request.entityType, request.entityId), ACTION_LIMIT_PREFIX)
          ).map((item) => Number(item.actionId));
          for (const write of planResetWrites(request, actionIds, clock.now()))
            await store.update(writeRequest(resetWriteKey(request.entityType, request.entityId, write.target), write));
          result.applied++;
        }
        done.push(receipt);
      } catch (error) {
        logger.error('applying a reset failed; it stays queued', describeError(error));
        result.failed++;
      }
    }
    await source.acknowledge(done);
  }
  emitMetrics(
    { ResetsApplied: result.applied, ResetsDropped: result.dropped, ResetsFailed: result.failed },
    clock.now(),
  );
  return result;
};
