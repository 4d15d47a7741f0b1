import { readArguments } from '../command-line';

const USAGE = `Usage: npm run simulate
  Simulates the delivery path at 1×, 10× and 100× the baseline load, with and without sharded counters, and the
  push path (the table stream, its consumer, the webhook dispatcher's lanes), and prints the tables of
  docs/capacity.md. SIMULATE_SECONDS (default 2) sets the seconds of events simulated,
  SIMULATE_GROUPS (default 1000000) the message groups of the one-day run.`;
readArguments(USAGE, {});

// loaded once the arguments are read: --help and a mistyped option answer without loading the tool's work
const { writeUnitsByMarkers } = await import('./counter-item');
const { COUNTER_ITEM_BOUND } = await import('./counter-item-bound');
const { manyGroupsDay } = await import('./many-groups');
const { INLINE_MARKERS_PER_ITEM } = await import('../../shared/domain/delivery/group-markers');
const { BASELINE, simulate } = await import('./model');
const { DELIVERY_QUEUE } = await import('../../infra/cdk/delivery-settings');
const { quotaChecklistOf, stackSettings } = await import('./quotas');

/** On-demand prices, us-east-1, as published on the DynamoDB pricing page in November 2026 [D2]. */
const DOLLARS_PER_MILLION_WRITE_UNITS = 0.625;

const SEED = 33;
/** A recorder invocation's batch from SQS FIFO: at most 10 messages, here each of its own group. */
const GROUPS_BATCH = 10;
const SECONDS = Number(process.env.SIMULATE_SECONDS ?? 2);
const RUNS: readonly (readonly [scale: number, shards: number])[] = [
  [1, 1],
  [10, 1],
  [100, 1],
  [100, 32],
  [100, 64],
  [100, 96],
  [100, 128],
];

console.log('Account quotas this configuration needs (cdk.json context and the -c values given):');
console.log(`${quotaChecklistOf(process.argv.slice(2))}\n`);
// the stack's own settings: recorders at once (raised with the load, as docs/capacity.md advises), visibility timeout
const { deliveryMaxConcurrency } = stackSettings(process.argv.slice(2));

const { units, sizes } = writeUnitsByMarkers(BASELINE.groupsPerScale * 100, new Date('2026-11-25T12:00:00Z'));
console.log(
  'Counter item after a long run (real planner and request builder), by message groups that wrote it, each group’s marker on the item (as before markers could be kept beside it; the rows past 32 groups are what an item written before still holds until its markers are pruned):',
);
console.log('| groups on the item | item size (bytes) | write units per write |\n|---|---|---|');
for (const markers of [1, 10, 16, 20, 32, 63, 200, 2000])
  console.log(`| ${markers} | ${sizes[markers]} | ${units[markers]} |`);

const GROUPS_A_DAY = Number(process.env.SIMULATE_GROUPS ?? 1_000_000);
const day = manyGroupsDay(GROUPS_A_DAY, GROUPS_BATCH, new Date('2026-11-25T12:00:00Z'));
console.log(
  `\nMessage groups: ${GROUPS_A_DAY.toLocaleString('en-US')} a day of 128-character names, one message of one impression each, in batches of ${GROUPS_BATCH} groups, on one advertiser's counter item (real planner and request builders; at most ${INLINE_MARKERS_PER_ITEM} markers on the item, the others beside it):`,
);
console.log(
  '| impressions counted | largest counter item (bytes) | bound (bytes) | marker item (bytes) | write units per batch | batches in transactions |\n|---|---|---|---|---|---|',
);
console.log(
  `| ${day.counted.toLocaleString('en-US')} | ${day.largestItem.toLocaleString('en-US')} | ${COUNTER_ITEM_BOUND.toLocaleString('en-US')} | ${day.markerItemBytes} | ${day.unitsPerBatch} | ${day.transactions.toLocaleString('en-US')} of ${day.batches.toLocaleString('en-US')} |`,
);

console.log(
  `\nSimulation: ${SECONDS} s of events then the drain, seed ${SEED}, Zipf s=${BASELINE.zipfExponent} over ${BASELINE.advertisers} advertisers; batches of ${BASELINE.messagesPerBatch}, visibility timeout ${DELIVERY_QUEUE.visibilityTimeoutSeconds} s, ${deliveryMaxConcurrency} recorders per 1×`,
);
console.log(
  '| scale | events/s | shards N | throttled writes | hottest item WCU/s | freshness p50 | freshness p99 | unrecorded at end | write units per batch | $ per million events (counter writes) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const [scale, shards] of RUNS) {
  const recorders = deliveryMaxConcurrency * scale;
  const outcome = simulate({ scale, shards, seconds: SECONDS, seed: SEED, unitsByMarkers: units, recorders });
  const batches = outcome.recordedEvents / (BASELINE.eventsPerMessage * BASELINE.messagesPerBatch);
  const perMillion = (outcome.writeUnits / Math.max(outcome.recordedEvents, 1)) * DOLLARS_PER_MILLION_WRITE_UNITS;
  console.log(
    `| ${scale}× | ${(BASELINE.eventsPerSecond * scale).toLocaleString('en-US')} | ${shards} | ${outcome.throttledWrites.toLocaleString('en-US')} | ${outcome.hottestItemUnitsPerSecond} | ${outcome.freshnessP50.toFixed(2)} s | ${outcome.freshnessP99.toFixed(2)} s | ${((100 * (outcome.events - outcome.recordedEvents)) / outcome.events).toFixed(1)} % | ${(outcome.writeUnits / Math.max(batches, 1)).toFixed(0)} | ${perMillion.toFixed(3)} |`,
  );
}

const { pushPathRows, pushPathTable, TARPIT_SHARE } = await import('./push-table');
const { BASELINE_LOAD } = await import('../../infra/cdk/load-settings');
console.log(
  `\nThe push path at 1×, 10× and 100× the documented load (docs/capacity.md, "The push path"): sizes from infra/cdk/push-path.ts, one subscription in ${Math.round(1 / TARPIT_SHARE)} at a receiver that never answers:`,
);
console.log(pushPathTable(pushPathRows(BASELINE_LOAD)));
