import { PartitionModel } from './partitions';
import { seededRandom, zipfSampler } from './random';

/** The documented baseline (docs/capacity.md): 10 recorders of batches of 1,000 events, ~200,000 events/s. */
export const BASELINE = {
  eventsPerSecond: 200_000,
  eventsPerMessage: 100,
  messagesPerBatch: 10,
  /** Twice the groups that saturate the recorders (one recorder takes ~20,000 events/s). */
  groupsPerScale: 20,
  advertisers: 10_000,
  zipfExponent: 1,
  /** A batch's own work (measured: ~0.5 s for 10,000 events). */
  batchSeconds: 0.05,
} as const;

/** The SDK's standard retries (3 attempts, 100 ms base, doubling), then the batch waits out its visibility timeout. */
export const RETRY = { attempts: 3, baseSeconds: 0.1, visibilityTimeoutSeconds: 30 } as const;

export interface Scenario {
  scale: number;
  shards: number;
  seconds: number;
  seed: number;
  /** Write units of one write to an item holding the markers of n message groups (from the real planner). */
  unitsByMarkers: readonly number[];
}

export interface Outcome {
  events: number;
  recordedEvents: number;
  writes: number;
  throttledWrites: number;
  writeUnits: number;
  hottestItemUnitsPerSecond: number;
  freshnessP50: number;
  freshnessP99: number;
  /** Messages still not recorded when the run ended (their freshness counts up to the end). */
  unrecordedMessages: number;
}

const STEP = 0.01;
const DRAIN_SECONDS = 60;

/** The shard of a message group: FNV-1a of its id, mod N. */
export const shardOf = (group: number, shards: number): number => {
  let hash = 0x811c9dc5;
  for (const char of `g${group}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash % shards;
};

export const retryDelay = (attempt: number): number =>
  attempt % RETRY.attempts === 0
    ? RETRY.visibilityTimeoutSeconds
    : RETRY.baseSeconds * 2 ** ((attempt % RETRY.attempts) - 1);

interface PendingWrite {
  item: number;
  units: number;
  attempt: number;
  at: number;
}

interface Group {
  phase: number;
  consumed: number;
  batch?: { messages: number; readyAt: number; writes: PendingWrite[] };
}

const quantile = (sorted: Float64Array, q: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/**
 * Runs delivery at `scale` times the baseline for `seconds`, then lets the backlog drain: each message group has
 * one batch in flight; a batch takes the messages that have arrived (up to 10), writes the counter item of every
 * advertiser its events name (shard `shardOf(group)` of it), and is recorded when all its writes are served and
 * its own work is done. Throttled writes are retried as the SDK does. Pure and deterministic for a seed.
 */
export const simulate = (scenario: Scenario): Outcome => {
  const { eventsPerMessage, messagesPerBatch, advertisers } = BASELINE;
  const random = seededRandom(scenario.seed);
  const advertiserOf = zipfSampler(advertisers, BASELINE.zipfExponent, random);
  const groupCount = BASELINE.groupsPerScale * scenario.scale;
  const rate = (BASELINE.eventsPerSecond * scenario.scale) / eventsPerMessage / groupCount;
  const groups: Group[] = Array.from({ length: groupCount }, () => ({ phase: random() / rate, consumed: 0 }));
  const markers = new Array<number>(scenario.shards).fill(0);
  for (let group = 0; group < groupCount; group++) markers[shardOf(group, scenario.shards)]!++;
  const unitsOfShard = markers.map(
    (count) => scenario.unitsByMarkers[Math.min(count, scenario.unitsByMarkers.length - 1)]!,
  );
  const sent = groups.map(({ phase }) => Math.max(0, Math.floor((scenario.seconds - phase) * rate) + 1));
  const freshness = new Float64Array(sent.reduce((sum, count) => sum + count, 0));
  let recorded = 0;
  const partitions = new PartitionModel();
  const lastSeen = new Int32Array(advertisers).fill(-1);
  let batches = 0;
  let time = 0;
  const end = scenario.seconds + DRAIN_SECONDS;
  for (let step = 0; time < end && recorded < freshness.length; step++, time = step * STEP) {
    if (step > 0 && Math.floor(time) !== Math.floor(time - STEP)) partitions.splitHotPartitions();
    for (let turn = 0; turn < groupCount; turn++) {
      const index = (turn + step) % groupCount;
      const group = groups[index]!;
      const shard = shardOf(index, scenario.shards);
      if (!group.batch) {
        const arrived = Math.min(sent[index]!, Math.max(0, Math.floor((time - group.phase) * rate) + 1));
        const messages = Math.min(messagesPerBatch, arrived - group.consumed);
        if (messages <= 0) continue;
        const writes: PendingWrite[] = [];
        for (let event = 0; event < messages * eventsPerMessage; event++) {
          const advertiser = advertiserOf();
          if (lastSeen[advertiser] === batches) continue;
          lastSeen[advertiser] = batches;
          const item = advertiser * scenario.shards + shard;
          partitions.place(item, `ADVERTISER#${advertiser}`, true);
          writes.push({ item, units: unitsOfShard[shard]!, attempt: 0, at: time });
        }
        batches++;
        group.batch = { messages, readyAt: time + BASELINE.batchSeconds, writes };
      }
      const batch = group.batch;
      batch.writes = batch.writes.filter((write) => {
        if (write.at > time) return true;
        if (partitions.write(write.item, write.units, time)) return false;
        write.attempt++;
        write.at = time + retryDelay(write.attempt);
        return true;
      });
      if (batch.writes.length > 0 || batch.readyAt > time) continue;
      for (let message = group.consumed; message < group.consumed + batch.messages; message++)
        freshness[recorded++] = time - (group.phase + message / rate);
      group.consumed += batch.messages;
      group.batch = undefined;
    }
  }
  const unrecorded = freshness.length - recorded;
  for (const [index, group] of groups.entries())
    for (let message = group.consumed; message < sent[index]!; message++)
      freshness[recorded++] = time - (group.phase + message / rate);
  const sorted = freshness.slice().sort();
  const events = freshness.length * eventsPerMessage;
  return {
    events,
    recordedEvents: events - unrecorded * eventsPerMessage,
    writes: partitions.acceptedWrites,
    throttledWrites: partitions.throttledWrites,
    writeUnits: partitions.writeUnits,
    hottestItemUnitsPerSecond: partitions.peakUnitsPerSecond,
    freshnessP50: quantile(sorted, 0.5),
    freshnessP99: quantile(sorted, 0.99),
    unrecordedMessages: unrecorded,
  };
};
