import { describe, expect, it } from 'vitest';
import { writeUnitsByMarkers } from '../../../scripts/simulate/counter-item';
import { BASELINE, shardOf, simulate } from '../../../scripts/simulate/model';
import { MAX_SHARDS } from '../../../shared/domain/delivery/counter-shards';

const at = new Date('2026-11-25T12:00:00Z');

describe('the capacity target at 100×', () => {
  const groups = BASELINE.groupsPerScale * 100;
  const markersOnShard = new Array<number>(MAX_SHARDS).fill(0);
  for (let group = 0; group < groups; group++) markersOnShard[shardOf(group, MAX_SHARDS)]!++;
  const busiest = Math.max(...markersOnShard);
  // the real item, grown through the real planner and request builder, up to the busiest shard's groups
  const { units } = writeUnitsByMarkers(busiest, at);

  it('holds the busiest of the most shards allowed in one write unit', () => {
    expect(units[busiest]).toBe(1);
  });

  it('throttles no write of the largest advertiser on the most shards allowed, freshness p99 under 10 s', () => {
    const outcome = simulate({ scale: 100, shards: MAX_SHARDS, seconds: 1, seed: 33, unitsByMarkers: units });
    expect(outcome.throttledWrites).toBe(0);
    expect(outcome.freshnessP99).toBeLessThan(10);
    expect(outcome.unrecordedMessages).toBe(0);
    // a second of 100× the load, simulated message by message: seconds of CPU, more on a busy machine
  }, 120_000);
});
