import type { Load } from '../../infra/cdk/capacity';
import { dispatcherSizing, pushFlows, streamConsumerSizing } from '../../infra/cdk/push-path';
import { simulatePushPath } from './push-path';

/** The runs of the push path: each load factor, for as many seconds as give a steady second at that scale. */
export const PUSH_RUNS = [
  { factor: 1, seconds: 10 },
  { factor: 10, seconds: 2 },
  { factor: 100, seconds: 1 },
] as const;
export const PUSH_SEED = 33;
/** One subscription in ten at a receiver that never answers. */
export const TARPIT_SHARE = 0.1;

/** The load times `factor`: its delivery events and its API requests. */
export const scaledLoad = (load: Load, factor: number): Load => ({
  ...load,
  deliveryEventsPerSecond: load.deliveryEventsPerSecond * factor,
  apiRequestsPerSecond: load.apiRequestsPerSecond * factor,
});

/** What the push path comes to at each factor of a load: the stack's sizing and a simulated run. */
export const pushPathRows = (load: Load) =>
  PUSH_RUNS.map(({ factor, seconds }) => {
    const scaled = scaledLoad(load, factor);
    const consumer = streamConsumerSizing(scaled);
    const outcome = simulatePushPath({ load: scaled, seconds, seed: PUSH_SEED, tarpitShare: TARPIT_SHARE });
    return {
      factor,
      streamShards: consumer.shards,
      recordsPerSecond: Math.round(pushFlows(scaled).streamRecords),
      consumer,
      dispatcher: dispatcherSizing(scaled),
      outcome,
    };
  });

const seconds = (value: number) => `${value.toFixed(1)} s`;
const count = (value: number) => Math.round(value).toLocaleString('en-US');

/** The rows as docs/capacity.md shows them (`npm run simulate` prints the same). */
export const pushPathTable = (rows: ReturnType<typeof pushPathRows>): string =>
  [
    '| load | stream shards | records to the consumer /s | consumer containers (needed) | iterator age p99 | write to bus p99 | deliveries /s | fast / slow lane containers | healthy receiver p50 / p99 | hottest webhook partition (WCU/s) |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      ({ factor, streamShards, recordsPerSecond, consumer, dispatcher, outcome }) =>
        `| ${factor}× | ${count(streamShards)} | ${count(recordsPerSecond)} | ${count(consumer.reservation)} (${count(consumer.concurrencyNeeded)}) | ${seconds(outcome.iteratorAge.p99)} | ${seconds(outcome.writeToBus.p99)} | ${count(outcome.deliveriesPerSecond)} | ${count(dispatcher.fast.maxConcurrency)}${dispatcher.fast.batchSize > 10 ? ` (batches of ${dispatcher.fast.batchSize})` : ''} / ${count(dispatcher.slow.maxConcurrency)} | ${seconds(outcome.writeToHealthyReceiver.p50)} / ${seconds(outcome.writeToHealthyReceiver.p99)} | ${count(outcome.hottestPartitionWriteUnits)} |`,
    ),
  ].join('\n');

/**
 * What `npm run capacity -- --json` prints of the push path, for each load factor of the configured load: the
 * stream's shards, what the stream consumer needs and has (its reservation at that load, as the stack sizes it),
 * the webhooks' deliveries a second and the write units the busiest webhook partition takes in the simulated run.
 */
export const pushPathLoads = (load: Load) => ({
  loads: pushPathRows(load).map(({ factor, streamShards, consumer, outcome }) => ({
    factor,
    streamShards,
    streamConsumer: { concurrencyNeeded: consumer.concurrencyNeeded, concurrencyAvailable: consumer.reservation },
    webhooks: {
      deliveriesPerSecond: Math.round(outcome.deliveriesPerSecond),
      hottestPartitionWriteUnits: outcome.hottestPartitionWriteUnits,
    },
  })),
});
