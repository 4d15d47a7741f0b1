import { describe, expect, it } from 'vitest';
import { BASELINE_LOAD } from '../../../infra/cdk/load-settings';
import {
  dispatcherSizing,
  pushFlows,
  STREAM_PARALLELIZATION_FACTOR,
  streamConsumerSizing,
  streamShards,
} from '../../../infra/cdk/push-path';
import type { Load } from '../../../infra/cdk/capacity';
import { simulatePushPath } from '../../../scripts/simulate/push-path';

const scaled = (factor: number): Load => ({
  ...BASELINE_LOAD,
  deliveryEventsPerSecond: BASELINE_LOAD.deliveryEventsPerSecond * factor,
  apiRequestsPerSecond: BASELINE_LOAD.apiRequestsPerSecond * factor,
});

describe('the push path sized from the load', () => {
  it('reads the 1× table of 113,200 write units a second through 114 stream shards', () => {
    expect(streamShards(BASELINE_LOAD)).toBe(114);
    expect(streamShards(scaled(10))).toBe(1_132);
  });

  it('reserves for the stream consumer what it needs with headroom, never more than its shards can use', () => {
    for (const factor of [1, 10, 100]) {
      const sizing = streamConsumerSizing(scaled(factor));
      expect(sizing.bound).toBe(sizing.shards * STREAM_PARALLELIZATION_FACTOR);
      expect(sizing.reservation).toBeGreaterThanOrEqual(sizing.concurrencyNeeded);
      expect(sizing.reservation).toBeLessThanOrEqual(sizing.bound);
    }
  });

  it('passes the consumer a fiftieth of the counting writes, not all of them', () => {
    const flows = pushFlows(BASELINE_LOAD);
    expect(flows.streamRecords).toBeLessThan(flows.counterWrites / 20);
  });

  it('grows the dispatcher with the deliveries, within what one queue trigger may run', () => {
    const [one, ten, hundred] = [1, 10, 100].map((factor) => dispatcherSizing(scaled(factor)));
    expect(ten!.fast.maxConcurrency).toBeGreaterThan(one!.fast.maxConcurrency);
    expect(ten!.events.maxConcurrency).toBeGreaterThan(one!.events.maxConcurrency);
    // past a thousand containers of ten, batches of a hundred gathered for a second
    expect(hundred!.fast).toMatchObject({ batchSize: 100, batchingWindowSeconds: 1 });
    for (const trigger of Object.values(hundred!)) expect(trigger.maxConcurrency).toBeLessThanOrEqual(1_000);
  });
});

describe('the push path simulated at 1×, one subscription in ten a receiver that never answers', () => {
  const run = (changes: Partial<Parameters<typeof simulatePushPath>[0]>) =>
    simulatePushPath({ load: BASELINE_LOAD, seconds: 4, seed: 11, tarpitShare: 0.1, ...changes });

  it("delivers a healthy subscriber's events within 10 s at the 99th percentile, its partition barely written", () => {
    const outcome = run({});
    expect(outcome.writeToHealthyReceiver.p99).toBeLessThan(10);
    expect(outcome.iteratorAge.p99).toBeLessThan(5);
    expect(outcome.hottestPartitionWriteUnits).toBeLessThan(500);
  });

  it('would hold them up behind the receivers that never answer with one lane', () => {
    expect(run({ lanes: false }).writeToHealthyReceiver.p99).toBeGreaterThan(10);
  });

  it('would fall behind the stream if every counting write reached 10 consumers', () => {
    const marked = run({});
    const every = run({ everyCounterWrite: { containers: 10 } });
    expect(every.iteratorAge.p99).toBeGreaterThan(2 * marked.iteratorAge.p99);
  });
});
