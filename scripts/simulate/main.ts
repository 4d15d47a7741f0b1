import { readArguments } from '../command-line';
import { writeUnitsByMarkers } from './counter-item';
import { BASELINE, simulate } from './model';

const USAGE = `Usage: npm run simulate
  Simulates the delivery path at 1×, 10× and 100× the baseline load, with and without sharded counters, and
  prints the tables of docs/capacity.md. SIMULATE_SECONDS (default 2) sets the seconds of events simulated.`;
readArguments(USAGE, {});

/** On-demand prices, us-east-1, as published on the DynamoDB pricing page in November 2026 [D2]. */
const DOLLARS_PER_MILLION_WRITE_UNITS = 0.625;

const SEED = 33;
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

const { units, sizes } = writeUnitsByMarkers(BASELINE.groupsPerScale * 100, new Date('2026-11-25T12:00:00Z'));
console.log('Counter item after a long run (real planner and request builder), by message groups that wrote it:');
console.log('| groups on the item | item size (bytes) | write units per write |\n|---|---|---|');
for (const markers of [1, 10, 16, 20, 32, 63, 200, 2000])
  console.log(`| ${markers} | ${sizes[markers]} | ${units[markers]} |`);

console.log(
  `\nSimulation: ${SECONDS} s of events then the drain, seed ${SEED}, Zipf s=${BASELINE.zipfExponent} over ${BASELINE.advertisers} advertisers`,
);
console.log(
  '| scale | events/s | shards N | throttled writes | hottest item WCU/s | freshness p50 | freshness p99 | unrecorded at end | write units per batch | $ per million events (counter writes) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const [scale, shards] of RUNS) {
  const outcome = simulate({ scale, shards, seconds: SECONDS, seed: SEED, unitsByMarkers: units });
  const batches = outcome.recordedEvents / (BASELINE.eventsPerMessage * BASELINE.messagesPerBatch);
  const perMillion = (outcome.writeUnits / Math.max(outcome.recordedEvents, 1)) * DOLLARS_PER_MILLION_WRITE_UNITS;
  console.log(
    `| ${scale}× | ${(BASELINE.eventsPerSecond * scale).toLocaleString('en-US')} | ${shards} | ${outcome.throttledWrites.toLocaleString('en-US')} | ${outcome.hottestItemUnitsPerSecond} | ${outcome.freshnessP50.toFixed(2)} s | ${outcome.freshnessP99.toFixed(2)} s | ${((100 * (outcome.events - outcome.recordedEvents)) / outcome.events).toFixed(1)} % | ${(outcome.writeUnits / Math.max(batches, 1)).toFixed(0)} | ${perMillion.toFixed(3)} |`,
  );
}
