import { readArguments } from '../scripts/command-line';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const USAGE = `Usage: npm run bench
  Runs every benchmark against DynamoDB Local on this machine (about five minutes) and exits 1 when a figure is
  over its budget (bench/budgets.json). BENCH_ITERATIONS (default 200) sets the calls per latency measure.
  How to read the output: bench/README.md.`;
readArguments(USAGE, {});

// loaded once the arguments are read: --help and a mistyped option answer without loading the tool's work
const { startBenchService } = await import('./bench-service');
const { benchBulkRead } = await import('./bulk-read');
const { COLD_START_RUNS, measureColdStarts } = await import('./cold-start');
const { measureOverhead } = await import('./overhead');
const { measurePauseCost } = await import('./pause-cost');
const { countRequests } = await import('./request-counts');
const { recordRequests } = await import('./request-recorder');
const { DELIVERY_OPERATION } = await import('./operations');
const { measureLimitReached } = await import('./limit-reached');
const { measureThroughput } = await import('./throughput');
const { LONG_RUN, measureDeliveryWriteUnits } = await import('./delivery-write-units');
const { reportShardedRead } = await import('./sharded-read');
const { measureWebhookLatency } = await import('./webhook-latency');
const { measureFanOut } = await import('./webhook-fan-out');
const { overBudget } = await import('./over-budget');

const budgets = JSON.parse(readFileSync(new URL('./budgets.json', import.meta.url), 'utf8'));
const OVERHEAD_ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

const printWriteUnits = ({ batch, longRun }: Awaited<ReturnType<typeof measureDeliveryWriteUnits>>) => {
  console.log(
    '7. Write units of the delivery path, as DynamoDB bills them (an item per started KB of the larger of its sizes before and after)',
  );
  const row = (name: string, writes: typeof batch) => ({
    writes: name,
    requests: writes.requests,
    'items written': writes.items,
    'refused on condition': writes.failedRequests,
    'write units': writes.units,
    'by units a write': Object.entries(writes.itemsByUnits)
      .map(([units, count]) => `${count} × ${units}`)
      .join(', '),
    'largest item': `${writes.largestItemBytes} B`,
    'DynamoDB Local reported': writes.reportedUnits,
    'requests where Local differs': writes.requestsDiffering,
  });
  console.table([
    row('standard batch (10,000 events in 100 messages over 50 banners)', batch),
    row(`long run, day ${LONG_RUN.days} (${LONG_RUN.groupsPerDay} groups a day)`, longRun.lastDay),
  ]);
  console.table([
    {
      'after the long run': `advertiser's counter item, ${LONG_RUN.days} days, groups writing ${LONG_RUN.daysPerGroup} days each`,
      bytes: longRun.bytes,
      markers: longRun.markers,
      'marker bytes': longRun.markerBytes,
      'attribute name bytes': longRun.attributeNameBytes,
      'units a write': longRun.unitsPerWrite,
    },
  ]);
};

console.log('Delivery Limits benchmarks: DynamoDB Local on this machine. See bench/README.md for how to read them.\n');
const service = await startBenchService();
let requestCounts, pauseCost, overhead, coldStarts, throughput, deliveryWrites, limitReached, writeUnits, webhooks;
try {
  const recorder = recordRequests(service.requestTaps);
  requestCounts = await countRequests(service, recorder);
  console.log('1. DynamoDB requests per operation');
  console.table(
    requestCounts.map((row) => ({
      operation: row.operation,
      requests: row.requests,
      floor: row.floor,
      budget: row.budget,
      warm: row.warm,
      'warm budget': row.warmBudget ?? '',
      'round trips': row.roundTrips,
      'write units': row.writes.items,
      result:
        row.requests <= row.budget && (row.warmBudget === undefined || row.warm <= row.warmBudget)
          ? 'ok'
          : 'OVER BUDGET',
    })),
  );

  const pauseBefore = measurePauseCost();
  overhead = await measureOverhead(service, OVERHEAD_ITERATIONS);
  pauseCost = { before: pauseBefore, after: measurePauseCost() };
  console.log(
    `2. Handler overhead: the functions as Lambda runs them, and the whole local stack, against the same AWS requests sent raw (${OVERHEAD_ITERATIONS} interleaved calls each, ms)`,
  );
  console.table(
    overhead.map((row) => ({
      operation: row.operation,
      'handler p50': row.handlerP50Ms,
      'handler p99': row.handlerP99Ms,
      'raw p50': row.rawP50Ms,
      'raw p99': row.rawP99Ms,
      'p50 ratio': row.ratioP50,
      'added p50': row.addedP50Ms,
      'via HTTP p50': row.stackP50Ms,
      'via HTTP ratio': row.stackRatioP50,
      'in requests p50, handler / raw': `${row.handlerInRequestsP50Ms} / ${row.rawInRequestsP50Ms}`,
      'outside requests p50, handler / raw': `${row.handlerOutsideRequestsP50Ms} / ${row.rawOutsideRequestsP50Ms}`,
    })),
  );
  console.log(
    `   What a 3 ms pause costs code on this machine, before and after: a fixed workload took ${pauseCost.before.backToBackUs} and ${pauseCost.after.backToBackUs} µs back to back, ${pauseCost.before.afterPauseUs} and ${pauseCost.after.afterPauseUs} µs after a busy wait (${pauseCost.before.ratio}× and ${pauseCost.after.ratio}×)\n`,
  );

  coldStarts = await measureColdStarts(service);
  console.log(
    `3. Cold start: a fresh Node process loads the bundle and serves its first request (median of ${COLD_START_RUNS}, the bundles taking turns; ms since process start)`,
  );
  console.table(
    coldStarts.map((row) => ({
      bundle: row.bundle,
      size: kb(row.bytes),
      'loaded at': row.loadMs,
      'first response at': row.firstResponseMs ?? 'needs SQS',
      'same call, warm': row.warmCallMs ?? '',
      'first response, ratio to minimal': row.firstResponseRatio ?? '',
      'cold start (first less warm), ratio to minimal': row.ratioToMinimal ?? '',
    })),
  );

  throughput = await measureThroughput(service, recorder);
  console.log('4. Delivery throughput: 10,000 events in 100 messages through the recorder, beside the previous design');
  console.table([
    {
      design: 'one counter item per entity, exactly once',
      events: throughput.events,
      messages: throughput.messages,
      'events/s': throughput.eventsPerSecond,
      'write requests': throughput.writeRequests,
      'items written': throughput.writeItems,
    },
    {
      design: 'previous: one item per (entity, period), at least once (last run)',
      events: throughput.events,
      messages: '',
      'events/s': throughput.previousDesign.eventsPerSecond,
      'write requests': throughput.previousDesign.writeRequests,
      'items written': throughput.previousDesign.writeItems,
    },
  ]);
  const delivery = requestCounts.find((row) => row.operation === DELIVERY_OPERATION)!;
  deliveryWrites = { ...delivery.writes, events: throughput.events, messages: throughput.messages };

  limitReached = await measureLimitReached(service, recorder);
  console.log(
    '5. LimitReached: one batch of 50 messages, each taking one banner over its two caps, told from the table stream',
  );
  console.table([
    {
      crossings: limitReached.crossings,
      'counter writes': limitReached.counterWrites,
      'recorder requests': limitReached.recorderRequests,
      'same batch, no crossing': limitReached.baselineRequests,
      'bus calls': limitReached.publishCalls,
      'events published': limitReached.publishedEvents,
      'DynamoDB requests per crossing':
        (limitReached.recorderRequests - limitReached.baselineRequests) / limitReached.crossings,
      'bus calls per crossing': Math.round((limitReached.publishCalls / limitReached.crossings) * 100) / 100,
      'caps bytes per counter item': limitReached.capsBytes,
    },
  ]);
  await reportShardedRead(service, recorder);

  writeUnits = await measureDeliveryWriteUnits(service);
  printWriteUnits(writeUnits);

  webhooks = await measureWebhookLatency(service, Math.min(OVERHEAD_ITERATIONS, 100));
  console.log('8. From the counting write to the partner: LimitReached on the stream, and the signed webhook received');
  console.table([
    {
      crossings: webhooks.crossings,
      'stream p50 (ms)': webhooks.streamP50,
      'stream p99 (ms)': webhooks.streamP99,
      'webhook p50 (ms)': webhooks.webhookP50,
      'webhook p99 (ms)': webhooks.webhookP99,
    },
  ]);
  const fanOut = await measureFanOut(service);
  webhooks = { ...webhooks, fanOut };
  console.log('9. Webhook fan-out: the read units of one event, with 10,000 subscriptions over 1,000 users');
  console.table([fanOut]);
} finally {
  await service.stop();
}

const bulk = await benchBulkRead();
console.log('6. Bulk read: 10,000 campaigns in one call, the server in a process of its own');
console.table([
  {
    rows: bulk.rowsReturned,
    'wall time': `${(bulk.wallMs / 1000).toFixed(2)} s`,
    'peak RSS': mb(bulk.peakRssBytes),
    'RSS before': mb(bulk.rssBeforeBytes),
    response: mb(bulk.responseBytes),
  },
]);

const failures = overBudget(budgets, {
  deliveryWrites,
  requestCounts,
  coldStarts,
  bulk,
  limitReached,
  webhooks,
});
mkdirSync('bench', { recursive: true });
writeFileSync(
  'bench/results.json',
  `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, requestCounts, deliveryWrites, pauseCost, overhead, coldStarts, throughput, limitReached, writeUnits, webhooks, bulkRead: bulk, failures }, null, 2)}\n`,
);
console.log('Results written to bench/results.json');
if (failures.length > 0) {
  console.error(`Over budget:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
