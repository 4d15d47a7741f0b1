import type { Load } from '../../infra/cdk/capacity';
import { dispatcherSizing, pushFlows, STREAM_CONSUMER_COST, streamConsumerSizing } from '../../infra/cdk/push-path';
import { STREAM_TRIGGER } from '../../shared/table/stream-trigger';
import { EventHeap } from './event-heap';
import type { Step } from './lane-pool';
import { dispatcherModel } from './push-dispatcher';
import { seededRandom } from './random';

export interface PushPathScenario {
  load: Load;
  /** Seconds of counting writes; the run then drains. */
  seconds: number;
  seed: number;
  /** Share of subscriptions whose receiver never answers. */
  tarpitShare: number;
  /** False: one lane of deliveries, retried in place (the dispatcher before its slow lane). */
  lanes?: boolean;
  /**
   * The trigger passing every counter write, not only those near a cap, to this many containers (the consumer before
   * writes were marked, reserved 10).
   */
  everyCounterWrite?: { containers: number };
}

export interface PushPathOutcome {
  streamShards: number;
  consumerContainers: number;
  iteratorAge: { p50: number; p99: number };
  writeToBus: { p50: number; p99: number };
  writeToHealthyReceiver: { p50: number; p99: number };
  deliveriesPerSecond: number;
  hottestPartitionWriteUnits: number;
}

/** How long a counting write takes to be readable in the table's stream, and the bus to hand an event to SQS. */
const STREAM_SECONDS = { least: 0.05, most: 0.5 };
const BUS_SECONDS = { least: 0.02, most: 0.3 };
const DRAIN_SECONDS = 120;

const quantiles = (values: number[]) => {
  const sorted = Float64Array.from(values).sort();
  const at = (q: number) =>
    sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
};

interface Shard {
  pending: { writtenAt: number; event: boolean }[];
  closing: boolean;
  inFlight: boolean;
}

interface StreamSetup {
  heap: EventHeap<Step>;
  random: () => number;
  shards: number;
  containers: number;
  /** Where each event goes once published, with its counting write's time. */
  publish: (writtenAt: number, publishedAt: number) => void;
}

const between = (random: () => number, { least, most }: { least: number; most: number }) =>
  least + (most - least) * random();

/**
 * The table's stream as the trigger reads it: each shard's records gathered for a batching window, one batch in
 * flight a shard, the consumer's containers shared by every shard (a batch waits for one), each invocation as long
 * as `STREAM_CONSUMER_COST` says.
 */
const streamModel = ({ heap, random, shards: count, containers, publish }: StreamSetup) => {
  const shards: Shard[] = Array.from({ length: count }, () => ({ pending: [], closing: false, inFlight: false }));
  const ages: number[] = [];
  const waiting: ((at: number) => void)[] = [];
  let free = containers;
  const invoke = (shard: Shard, start: number) => {
    free--;
    const batch = shard.pending.splice(0, STREAM_TRIGGER.batchSize);
    const events = batch.filter((record) => record.event);
    for (const record of batch) ages.push(start - record.writtenAt);
    const duration =
      STREAM_CONSUMER_COST.invocationSeconds +
      batch.length * STREAM_CONSUMER_COST.recordSeconds +
      Math.ceil(events.length / 10) * STREAM_CONSUMER_COST.putEventsSeconds;
    heap.push(start + duration, (done) => {
      free++;
      shard.inFlight = false;
      for (const record of events) publish(record.writtenAt, done);
      waiting.shift()?.(done);
      if (shard.pending.length > 0) close(shard, done);
    });
  };
  const close = (shard: Shard, time: number) => {
    if (shard.closing || shard.inFlight) return;
    shard.closing = true;
    heap.push(time + STREAM_TRIGGER.maxBatchingWindowSeconds, (due) => {
      shard.closing = false;
      shard.inFlight = true;
      if (free > 0) invoke(shard, due);
      else waiting.push((at) => invoke(shard, at));
    });
  };
  const record = (writtenAt: number, event: boolean) => {
    const shard = shards[Math.floor(random() * shards.length)]!;
    heap.push(writtenAt + between(random, STREAM_SECONDS), (visible) => {
      shard.pending.push({ writtenAt, event });
      close(shard, visible);
    });
  };
  return { record, ages };
};

/**
 * The push path at a load: counting writes near a cap and new history entries in the table's stream, read shard by
 * shard as the trigger reads them, their events through the bus to the dispatcher, fanned out and delivered in its
 * lanes. Every size comes from the stack's own sizing (`infra/cdk/push-path.ts`). Pure and deterministic for a seed.
 */
export const simulatePushPath = (scenario: PushPathScenario): PushPathOutcome => {
  const { load, seconds, seed, tarpitShare, lanes = true, everyCounterWrite } = scenario;
  const random = seededRandom(seed);
  const heap = new EventHeap<Step>();
  const flows = pushFlows(load);
  const consumer = streamConsumerSizing(load);
  const dispatcher = dispatcherModel({ heap, random, triggers: dispatcherSizing(load), tarpitShare, lanes });
  const toBus: number[] = [];
  const containers = everyCounterWrite?.containers ?? consumer.reservation;
  const stream = streamModel({
    heap,
    random,
    shards: consumer.bound,
    containers,
    publish: (writtenAt, publishedAt) => {
      toBus.push(publishedAt - writtenAt);
      dispatcher.events.send(writtenAt, publishedAt + between(random, BUS_SECONDS));
    },
  });
  const records = flows.streamRecords + (everyCounterWrite ? flows.counterWrites - flows.nearCapWrites : 0);
  const eventShare = flows.events / records;
  for (let writtenAt = 0; writtenAt < seconds; writtenAt += -Math.log(1 - random()) / records)
    stream.record(writtenAt, random() < eventShare);
  for (let next = heap.pop(); next && next.time < seconds + DRAIN_SECONDS; next = heap.pop()) next.event(next.time);
  return {
    streamShards: consumer.shards,
    consumerContainers: containers,
    iteratorAge: quantiles(stream.ages),
    writeToBus: quantiles(toBus),
    writeToHealthyReceiver: quantiles(dispatcher.measures.healthy),
    deliveriesPerSecond: dispatcher.measures.deliveries / seconds,
    hottestPartitionWriteUnits: dispatcher.measures.hottestPartitionWriteUnits,
  };
};
