import { STREAM_TRIGGER } from '../../shared/table/stream-trigger';
import { deliveryBatchesPerSecond, ON_DEMAND_START, tableThroughput, type Load } from './capacity';
import { WEBHOOK_QUEUES } from './webhook-settings';

/** What one DynamoDB partition serves a second; the table's stream has about one shard per partition. */
const PARTITION_UNITS = { write: 1_000, read: 3_000 } as const;

/**
 * The shape of the work that follows a counting write, stated once for the stack, `npm run capacity` and
 * `npm run simulate` (docs/capacity.md argues each number).
 */
export const PUSH_WORKLOAD = {
  /** Write units of one counter write: a counter item is 1 to 2 KB. */
  writeUnitsPerCounterWrite: 2,
  /** Counter writes near a cap (marked for the stream): within a write of a cap, or past it before the period ends. */
  nearCapShare: 0.02,
  /** Near-cap writes that make a counter reach its cap: each a LimitReached. */
  crossingShare: 0.1,
  /** API requests that change a limit: each a history entry and a LimitChanged. */
  apiWriteShare: 0.2,
  /** Subscriptions an event is delivered to, on average. */
  subscriptionsPerEvent: 2,
} as const;

/** What the stream consumer spends: an invocation's own work, each record's, and each PutEvents call of 10 events. */
export const STREAM_CONSUMER_COST = { invocationSeconds: 0.02, recordSeconds: 0.001, putEventsSeconds: 0.03 } as const;

/** What the webhook dispatcher spends: a fan-out (the entity, the share index, the routes, a send). */
export const DISPATCHER_COST = { fanOutSeconds: 0.05, moveSeconds: 0.01 } as const;

/** How long a healthy receiver takes to answer, at the 99th percentile (a batch lasts its slowest POST). */
export const HEALTHY_ANSWER_P99_SECONDS = 0.5;

/** Batches of one shard Lambda reads at once: one keeps each entity's events in the order they were written. */
export const STREAM_PARALLELIZATION_FACTOR = 1;

/** Containers kept for the consumer above what the load needs on average: bursts, retries, cold starts. */
const HEADROOM = 2;
const MIN_CONTAINERS = { streamConsumer: 10, events: 2, fast: 5, slow: 2 } as const;

/** The table's partitions at the load, and so the stream's shards: never fewer than a new on-demand table has. */
export const streamShards = (load: Load): number => {
  const { writeUnitsPerSecond, readUnitsPerSecond } = tableThroughput(load);
  return Math.max(
    Math.ceil(Math.max(writeUnitsPerSecond, ON_DEMAND_START.writeUnitsPerSecond) / PARTITION_UNITS.write),
    Math.ceil(Math.max(readUnitsPerSecond, ON_DEMAND_START.readUnitsPerSecond) / PARTITION_UNITS.read),
  );
};

/** The push path's flows at a load, a second each. */
export const pushFlows = (load: Load) => {
  const counterWrites =
    (deliveryBatchesPerSecond(load) * load.writeUnitsPerBatch) / PUSH_WORKLOAD.writeUnitsPerCounterWrite;
  const nearCapWrites = counterWrites * PUSH_WORKLOAD.nearCapShare;
  const limitReached = nearCapWrites * PUSH_WORKLOAD.crossingShare;
  const limitChanged = load.apiRequestsPerSecond * PUSH_WORKLOAD.apiWriteShare;
  const events = limitReached + limitChanged;
  return {
    counterWrites,
    nearCapWrites,
    /** What the trigger's filter passes: near-cap writes and new history entries. */
    streamRecords: nearCapWrites + limitChanged,
    limitReached,
    limitChanged,
    events,
    deliveries: events * PUSH_WORKLOAD.subscriptionsPerEvent,
  };
};

/** The containers a trigger needs on average (Little's law): invocations a second times how long each takes. */
const containersFor = (invocationsPerSecond: number, seconds: number, least: number) =>
  Math.max(least, Math.ceil(invocationsPerSecond * seconds * HEADROOM));

/**
 * The stream consumer at a load. Each shard has at most `STREAM_PARALLELIZATION_FACTOR` batches in flight, so the
 * shards bound what it can ever use; it needs what its invocations take on average, each shard invoked at most once
 * per batching window with what the window gathered. Its reservation is that with headroom, never above the bound.
 */
export const streamConsumerSizing = (load: Load) => {
  const shards = streamShards(load);
  const bound = shards * STREAM_PARALLELIZATION_FACTOR;
  const flows = pushFlows(load);
  const window = STREAM_TRIGGER.maxBatchingWindowSeconds;
  const perShardWindow = (flows.streamRecords * window) / bound;
  const invocationsPerSecond = (bound * Math.min(1, perShardWindow)) / window;
  const batch = Math.min(STREAM_TRIGGER.batchSize, Math.max(1, perShardWindow));
  const eventsPerBatch = (batch * flows.events) / Math.max(flows.streamRecords, 1);
  const seconds =
    STREAM_CONSUMER_COST.invocationSeconds +
    batch * STREAM_CONSUMER_COST.recordSeconds +
    Math.ceil(eventsPerBatch / 10) * STREAM_CONSUMER_COST.putEventsSeconds;
  const needed = Math.max(1, Math.ceil(invocationsPerSecond * seconds));
  return {
    shards,
    bound,
    invocationSeconds: seconds,
    concurrencyNeeded: needed,
    reservation: Math.min(bound, containersFor(invocationsPerSecond, seconds, MIN_CONTAINERS.streamConsumer)),
  };
};

/** What one SQS trigger runs at once: Lambda's bound on a queue trigger's maximum concurrency. */
const TRIGGER_MAX_CONCURRENCY = 1_000;
/** A batch of more than 10 of a standard queue's messages needs a batching window (Lambda's rule). */
const LARGE_BATCH = { batchSize: 100, batchingWindowSeconds: 1 } as const;

/** One queue's trigger: its batch, how long it gathers one, and how many containers it runs at once. */
export interface TriggerSizing {
  batchSize: number;
  batchingWindowSeconds: number;
  maxConcurrency: number;
}

/**
 * A queue's trigger for `messagesPerSecond`, each batch taking `batchSeconds`: batches of 10 as long as the
 * containers that needs fit one trigger, else batches of 100 gathered for a second.
 */
const queueTrigger = (messagesPerSecond: number, batchSeconds: number, least: number): TriggerSizing => {
  const small = containersFor(messagesPerSecond / WEBHOOK_QUEUES.batchSize, batchSeconds, least);
  if (small <= TRIGGER_MAX_CONCURRENCY)
    return { batchSize: WEBHOOK_QUEUES.batchSize, batchingWindowSeconds: 0, maxConcurrency: small };
  const large = containersFor(messagesPerSecond / LARGE_BATCH.batchSize, batchSeconds, least);
  return { ...LARGE_BATCH, maxConcurrency: Math.min(TRIGGER_MAX_CONCURRENCY, large) };
};

/**
 * The webhook dispatcher's triggers at a load, per queue: fan-out of the events; the fast lane, whose batch lasts
 * its slowest healthy POST; the slow lane, whose receivers fail or never answer, which only has to keep probing
 * them (SQS's fair queues put a quiet subscription's message before a backlog's).
 */
export const dispatcherSizing = (load: Load) => {
  const { events, deliveries } = pushFlows(load);
  const fast = queueTrigger(deliveries, HEALTHY_ANSWER_P99_SECONDS, MIN_CONTAINERS.fast);
  const probing = Math.ceil((fast.maxConcurrency * fast.batchSize) / WEBHOOK_QUEUES.batchSize / 4);
  return {
    events: queueTrigger(events, DISPATCHER_COST.fanOutSeconds * 2, MIN_CONTAINERS.events),
    fast,
    slow: {
      batchSize: WEBHOOK_QUEUES.batchSize,
      batchingWindowSeconds: 0,
      maxConcurrency: Math.min(TRIGGER_MAX_CONCURRENCY, Math.max(MIN_CONTAINERS.slow, probing)),
    },
  };
};

/** The containers the dispatcher may run at once, its three triggers together. */
export const dispatcherConcurrency = (load: Load): number =>
  Object.values(dispatcherSizing(load)).reduce((sum, trigger) => sum + trigger.maxConcurrency, 0);
