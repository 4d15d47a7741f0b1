import { counterState, zeroCountersRequest } from '../adapters/dynamodb/counter-store';
import { loadLimit } from '../adapters/dynamodb/limit-store';
import { ACTION_METRICS, ACTION_PERIODS } from '../adapters/dynamodb/per-action-store';
import type { TableStore } from '../adapters/dynamodb/table-store';
import { WriteConflict } from '../domain/errors';
import type { EntityType } from '../domain/levels';
import { METRICS, PERIODS, type Period } from '../domain/limits/metrics';
import { bucketOf } from '../domain/limits/periods';
import { planResetWrites, type ResetWrite } from '../domain/resets/reset-writes';
import { describeError, logger } from '../logger';
import { emitMetrics } from '../metrics';
import type { Clock } from '../ports/clock';
import { ACTION_LIMIT_PREFIX, actionCountersKey, countersKey, entityPK } from '../table/keys';
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

const MAX_ATTEMPTS = 8;

/**
 * Zeroes the counters of one item that count now: read, then write on condition that the item is still in the
 * periods read (a delivery write that rolled it over meanwhile makes the write plan again).
 */
const applyResetWrite = async (store: TableStore, type: EntityType, id: number, write: ResetWrite, now: Date) => {
  const key = write.actionId === undefined ? countersKey(type, id) : actionCountersKey(type, id, write.actionId);
  const [periods, metrics] = write.actionId === undefined ? [PERIODS, METRICS] : [ACTION_PERIODS, ACTION_METRICS];
  const currentKeys = Object.fromEntries(periods.map((period) => [period, bucketOf(period, now)])) as Record<
    Period,
    string
  >;
  for (let attempt = 1; ; attempt++) {
    const state = counterState(await store.get(key), periods, metrics);
    const request = zeroCountersRequest(key, state, write.zeroes, write.noConversion, currentKeys);
    if (!request) return;
    try {
      await store.update(request);
      return;
    } catch (error) {
      if (!(error instanceof WriteConflict) || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
};

/**
 * The hourly flush: drains the queue until a long-polling receive finds it empty or `hasTime` says stop, and
 * applies each reset. A reset applied twice (its acknowledgement lost) zeroes what it zeroed: harmless.
 */
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
            await applyResetWrite(store, request.entityType, request.entityId, write, clock.now());
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
