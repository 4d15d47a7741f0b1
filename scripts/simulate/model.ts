import { DELIVERY_QUEUE } from '../../infra/cdk/delivery-settings';
import { shardOfGroup } from '../../shared/domain/delivery/counter-shards';
import { groupId } from './groups';
import { PartitionModel } from './partitions';
import { seededRandom, zipfSampler } from './random';
import { retryDelay, type Outcome, type Scenario } from './scenario';

/** The documented baseline (docs/capacity.md): 10 recorders of batches of 1,000 events, ~200,000 events/s. */
export const BASELINE = {
  eventsPerSecond: 200_000,
  eventsPerMessage: 100,
  /** The recorder's batch size, as the stack's trigger takes it (`infra/cdk/delivery-settings.ts`). */
  messagesPerBatch: DELIVERY_QUEUE.batchSize,
  /** Twice the groups that saturate the recorders (one recorder takes ~20,000 events/s). */
  groupsPerScale: 20,
  advertisers: 10_000,
  zipfExponent: 1,
  /** A batch's own work (measured: ~0.5 s for 10,000 events). */
  batchSeconds: 0.05,
} as const;

const STEP = 0.01;
const DRAIN_SECONDS = 60;

/** The shard of a message group, as the recorder picks it, for the group's id (the one the item's size assumes). */
export const shardOf = (group: number, shards: number): number => shardOfGroup(groupId(group), shards);

/**
 * A batch's writes not yet served, in the order sent: the item, the attempts so far and when the next is due, in
 * parallel arrays (a run sends some 20 million writes); every write of a batch costs the same units (its shard's).
 */
interface Batch {
  messages: number;
  readyAt: number;
  units: number;
  items: Int32Array;
  attempts: Int32Array;
  at: Float64Array;
  /** How many writes are left: the first `left` of the arrays. */
  left: number;
  /** The earliest `at` of the writes left: before it, none is due (Infinity when none is left). */
  nextAt: number;
}

interface Group {
  phase: number;
  consumed: number;
  batch?: Batch;
}

const quantile = (sorted: Float64Array, q: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** A run's fixed shape and its state as it goes: the groups, the partitions and the messages' freshness. */
interface Run {
  scenario: Scenario;
  rate: number;
  groups: Group[];
  shardOfGroup: Int32Array;
  unitsOfShard: number[];
  sent: number[];
  freshness: Float64Array;
  recorded: number;
  partitions: PartitionModel;
  advertiserOf: () => number;
  lastSeen: Int32Array;
  /** Items already placed in a partition (one per advertiser and shard). */
  placed: Uint8Array;
  batches: number;
  /** Batches taken and not yet recorded, against `scenario.recorders`. */
  inFlight: number;
}

const startRun = (scenario: Scenario): Run => {
  const random = seededRandom(scenario.seed);
  const advertiserOf = zipfSampler(BASELINE.advertisers, BASELINE.zipfExponent, random);
  const groupCount = BASELINE.groupsPerScale * scenario.scale;
  const rate = (BASELINE.eventsPerSecond * scenario.scale) / BASELINE.eventsPerMessage / groupCount;
  const groups: Group[] = Array.from({ length: groupCount }, () => ({ phase: random() / rate, consumed: 0 }));
  const shardOfGroup = Int32Array.from({ length: groupCount }, (_, group) => shardOf(group, scenario.shards));
  const markers = new Array<number>(scenario.shards).fill(0);
  for (const shard of shardOfGroup) markers[shard]!++;
  const unitsOfShard = markers.map(
    (count) => scenario.unitsByMarkers[Math.min(count, scenario.unitsByMarkers.length - 1)]!,
  );
  const sent = groups.map(({ phase }) => Math.max(0, Math.floor((scenario.seconds - phase) * rate) + 1));
  return {
    scenario,
    rate,
    groups,
    shardOfGroup,
    unitsOfShard,
    sent,
    freshness: new Float64Array(sent.reduce((sum, count) => sum + count, 0)),
    recorded: 0,
    partitions: new PartitionModel(),
    advertiserOf,
    lastSeen: new Int32Array(BASELINE.advertisers).fill(-1),
    placed: new Uint8Array(BASELINE.advertisers * scenario.shards),
    batches: 0,
    inFlight: 0,
  };
};

/** The batch a group takes at `time`: the messages arrived (up to 10), one write per advertiser they name. */
const nextBatch = (run: Run, index: number, time: number): Batch | undefined => {
  const { groups, rate, sent, partitions, lastSeen, placed, scenario } = run;
  const group = groups[index]!;
  const arrived = Math.min(sent[index]!, Math.max(0, Math.floor((time - group.phase) * rate) + 1));
  const messages = Math.min(BASELINE.messagesPerBatch, arrived - group.consumed);
  if (messages <= 0) return undefined;
  const shard = run.shardOfGroup[index]!;
  const events = messages * BASELINE.eventsPerMessage;
  const items = new Int32Array(events);
  let left = 0;
  for (let event = 0; event < events; event++) {
    const advertiser = run.advertiserOf();
    if (lastSeen[advertiser] === run.batches) continue;
    lastSeen[advertiser] = run.batches;
    const item = advertiser * scenario.shards + shard;
    if (placed[item] === 0) partitions.place(item, `ADVERTISER#${advertiser}`, true);
    placed[item] = 1;
    items[left++] = item;
  }
  run.batches++;
  const at = new Float64Array(left).fill(time);
  const units = run.unitsOfShard[shard]!;
  const nextAt = left > 0 ? time : Infinity;
  return {
    messages,
    readyAt: time + BASELINE.batchSeconds,
    units,
    items,
    attempts: new Int32Array(left),
    at,
    left,
    nextAt,
  };
};

/** Sends the batch's writes that are due, in order; a throttled one is retried later. The rest keep their order. */
const serveDueWrites = (partitions: PartitionModel, batch: Batch, time: number, visibility: number): void => {
  if (batch.nextAt > time) return;
  const { items, attempts, at } = batch;
  let nextAt = Infinity;
  let kept = 0;
  for (let write = 0; write < batch.left; write++) {
    if (at[write]! <= time) {
      if (partitions.write(items[write]!, batch.units, time)) continue;
      attempts[write]!++;
      at[write] = time + retryDelay(attempts[write]!, visibility);
    }
    nextAt = Math.min(nextAt, at[write]!);
    items[kept] = items[write]!;
    attempts[kept] = attempts[write]!;
    at[kept++] = at[write]!;
  }
  batch.left = kept;
  batch.nextAt = nextAt;
};

/** One group's turn at `time`: take a batch if it has none, serve its due writes, record it once done. */
const turn = (run: Run, index: number, time: number): void => {
  const group = run.groups[index]!;
  if (!group.batch && run.inFlight < (run.scenario.recorders ?? Infinity)) {
    group.batch = nextBatch(run, index, time);
    if (group.batch) run.inFlight++;
  }
  const batch = group.batch;
  if (!batch) return;
  serveDueWrites(
    run.partitions,
    batch,
    time,
    run.scenario.visibilityTimeoutSeconds ?? DELIVERY_QUEUE.visibilityTimeoutSeconds,
  );
  if (batch.left > 0 || batch.readyAt > time) return;
  for (let message = group.consumed; message < group.consumed + batch.messages; message++)
    run.freshness[run.recorded++] = time - (group.phase + message / run.rate);
  group.consumed += batch.messages;
  group.batch = undefined;
  run.inFlight--;
};

/**
 * Runs delivery at `scale` times the baseline for `seconds`, then lets the backlog drain: each message group has
 * one batch in flight; a batch takes the messages that have arrived (up to 10), writes the counter item of every
 * advertiser its events name (shard `shardOf(group)` of it), and is recorded when all its writes are served and
 * its own work is done. Throttled writes are retried as the SDK does. Pure and deterministic for a seed.
 */
export const simulate = (scenario: Scenario): Outcome => {
  const run = startRun(scenario);
  const { groups, freshness, partitions } = run;
  const groupCount = groups.length;
  let time = 0;
  const end = scenario.seconds + DRAIN_SECONDS;
  for (let step = 0; time < end && run.recorded < freshness.length; step++, time = step * STEP) {
    if (step > 0 && Math.floor(time) !== Math.floor(time - STEP)) partitions.splitHotPartitions();
    for (let offset = 0; offset < groupCount; offset++) turn(run, (offset + step) % groupCount, time);
  }
  const unrecorded = freshness.length - run.recorded;
  for (const [index, group] of groups.entries())
    for (let message = group.consumed; message < run.sent[index]!; message++)
      freshness[run.recorded++] = time - (group.phase + message / run.rate);
  const sorted = freshness.slice().sort();
  const events = freshness.length * BASELINE.eventsPerMessage;
  return {
    events,
    recordedEvents: events - unrecorded * BASELINE.eventsPerMessage,
    writes: partitions.acceptedWrites,
    throttledWrites: partitions.throttledWrites,
    writeUnits: partitions.writeUnits,
    hottestItemUnitsPerSecond: partitions.peakUnitsPerSecond,
    freshnessP50: quantile(sorted, 0.5),
    freshnessP99: quantile(sorted, 0.99),
    unrecordedMessages: unrecorded,
  };
};
