import { counterState } from '../adapters/dynamodb/counter-item-state';
import { zeroCountersRequest } from '../adapters/dynamodb/counter-requests';
import { loadLimit } from '../adapters/dynamodb/limit-store';
import type { Item, TableStore } from '../adapters/dynamodb/table-store';
import { WriteConflict } from '../domain/errors';
import { ACTION_METRICS, ACTION_PERIODS, METRICS, PERIODS, type Period } from '../domain/limits/cap-axes';
import { bucketOf } from '../domain/limits/periods';
import { planResetWrites, type ResetWrite } from '../domain/resets/reset-writes';
import type { EntityType } from '../domain/levels';
import type { ResetRequest } from '../domain/resets/reset-request';
import { type HistoryEntry } from '../domain/history/limit-history';
import { historyVersionOf, historyWrites } from '../adapters/dynamodb/history-store';
import { createHash } from 'node:crypto';
import { describeError, logger } from '../observability/logger';
import { emitMetrics } from '../observability/metrics';
import type { Clock } from '../ports/clock';
import {
  ACTION_LIMIT_PREFIX,
  actionCountersKey,
  COUNTERS_SK,
  countersKey,
  entityPK,
  historyHeadKey,
  resetAppliedKey,
  type ItemKey,
} from '../table/keys';
import type { ResetSource } from '../ports/reset-queue';

export interface FlushPorts {
  store: TableStore;
  clock: Clock;
  source: ResetSource;
}

export interface FlushResult {
  /** Resets applied now; one applied before (delivered again, or a reset.do retried under its key) is not counted. */
  applied: number;
  /** Resets for records deleted or replaced since they were queued. */
  dropped: number;
  /** Left on the queue to come back (and reach the dead-letter queue after too many tries). */
  failed: number;
}

const RECEIVE_BATCH = 10;

const MAX_ATTEMPTS = 8;

/** A DynamoDB transaction holds at most 100 actions. */
const TRANSACTION_ITEMS = 100;

/**
 * A queued reset's identity: the same reset delivered again (its acknowledgement lost) finds itself applied, and so
 * does a reset.do retried under its Idempotency-Key, queued again with the same `retryId`.
 */
const resetEntryId = (request: ResetRequest) =>
  request.retryId !== undefined
    ? `retry-${request.retryId}`
    : `reset-${createHash('sha256').update(JSON.stringify(request)).digest('base64url').slice(0, 22)}`;

/** Transactions of at most 100 items, cut from the end so that the last holds the last items whole. */
const transactionChunks = <T>(items: readonly T[]): T[][] => {
  const result: T[][] = [];
  for (let end = items.length; end > 0; end -= TRANSACTION_ITEMS)
    result.unshift(items.slice(Math.max(0, end - TRANSACTION_ITEMS), end));
  return result;
};

/** A queued reset is delivered again for at most the queue's retention (14 days): its marker outlives that. */
const APPLIED_MARKER_SECONDS = 15 * 86_400;

const itemKeyOf = (item: Item): ItemKey => ({ PK: String(item.PK), SK: String(item.SK) });

/**
 * The updates that zero what one planned write names: on each of the entity's counter shards (one read of the
 * partition's `COUNTERS*` items finds them all) or on one action's counter item.
 */
const zeroingOf = async (
  store: TableStore,
  { type, id }: { type: EntityType; id: number },
  write: ResetWrite,
  { currentKeys, now }: { currentKeys: Record<Period, string>; now: Date },
) => {
  const [periods, metrics] = write.actionId === undefined ? [PERIODS, METRICS] : [ACTION_PERIODS, ACTION_METRICS];
  const key = write.actionId === undefined ? countersKey(type, id) : actionCountersKey(type, id, write.actionId);
  const shards = write.actionId === undefined ? await store.queryPartition(key.PK, COUNTERS_SK) : [];
  // no item yet: the reset may still have something to set (the no-conversion state), as on one item
  const items =
    shards.length > 0
      ? shards.map((item) => ({ item, at: itemKeyOf(item) }))
      : [{ item: await store.get(key), at: key }];
  return items.flatMap(({ item, at }) => {
    const state = counterState(item, periods, metrics);
    const update = zeroCountersRequest(at, state, {
      zeroes: write.zeroes,
      noConversion: write.noConversion,
      currentKeys,
      resetAt: now.getTime(),
    });
    return update ? [{ Update: { TableName: store.tableName, ...update } }] : [];
  });
};

/**
 * Zeroes the counters a reset names in the periods they count in now, and records the reset in the entity's
 * history in the same transaction, with a marker that it was applied: read every item, then write on condition
 * that each is still in the periods read (a delivery write that rolled one over meanwhile makes the whole reset
 * plan again). A reset that finds nothing to zero (no counters yet) is recorded all the same; one already applied
 * changes nothing. Answers whether it was applied now.
 */
const applyReset = async (store: TableStore, request: ResetRequest, actionIds: readonly number[], now: Date) => {
  const { entityType: type, entityId: id } = request;
  const writes = planResetWrites(request, actionIds, now);
  const currentKeys = Object.fromEntries(PERIODS.map((period) => [period, bucketOf(period, now)])) as Record<
    Period,
    string
  >;
  const entry: HistoryEntry = {
    at: request.requestedAt,
    operation: 'reset',
    by: request.by ?? { userId: request.requestedBy, username: '', method: '' },
    limitCounters: request.counters,
    appliedAt: now.toISOString(),
  };
  const marker = resetAppliedKey(type, id, resetEntryId(request));
  for (let attempt = 1; ; attempt++) {
    const [applied, head] = await Promise.all([store.get(marker), store.get(historyHeadKey(type, id))]);
    if (applied) return false;
    const updates = (
      await Promise.all(writes.map((write) => zeroingOf(store, { type, id }, write, { currentKeys, now })))
    ).flat();
    const items = [
      ...updates,
      store.insertItem({ ...marker, expiresAt: Math.ceil(now.getTime() / 1000) + APPLIED_MARKER_SECONDS }),
      ...historyWrites(store.tableName, { type, id }, entry, { now, versionRead: historyVersionOf(head) }),
    ];
    try {
      // more than one transaction only past 97 per-action limits; the marker and the entry go in the last, so a
      // retried reset zeroes the earlier ones again, harmlessly, and is recorded once
      for (const chunk of transactionChunks(items)) await store.transactWrite({ TransactItems: chunk });
      return true;
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
          if (await applyReset(store, request, actionIds, clock.now())) result.applied++;
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
