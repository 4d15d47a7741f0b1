import { describe, expect, it } from 'vitest';
import { simulate } from '../../../scripts/simulate/model';
import type { Outcome } from '../../../scripts/simulate/scenario';

/** Write units of one write by the markers on the item: throttling sets in at a few groups a shard. */
const UNITS_BY_MARKERS = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 5, 6, 8, 10, 12, 16];

/**
 * Outcomes of the simulation as it was before its per-write objects and partition maps gave way to typed arrays
 * (commit 963c305, one write object a write, filtered every step): the rewrite must give the very same numbers.
 * Both pick a group's shard with the recorder's `shardOfGroup` (the old code run again with it, for these numbers).
 */
const BEFORE_THE_REWRITE: [Omit<Parameters<typeof simulate>[0], 'unitsByMarkers'>, Outcome][] = [
  [
    { scale: 1, shards: 1, seconds: 1, seed: 7 },
    {
      events: 200000,
      recordedEvents: 200000,
      writes: 110607,
      throttledWrites: 454,
      writeUnits: 442428,
      hottestItemUnitsPerSecond: 1000,
      freshnessP50: 0.09481597454287113,
      freshnessP99: 0.3602205389551818,
      unrecordedMessages: 0,
    },
  ],
  [
    { scale: 5, shards: 1, seconds: 1, seed: 33 },
    {
      events: 1000000,
      recordedEvents: 91500,
      writes: 92858,
      throttledWrites: 16056,
      writeUnits: 1485728,
      hottestItemUnitsPerSecond: 992,
      freshnessP50: 60.46490634257905,
      freshnessP99: 60.96845382107189,
      unrecordedMessages: 9085,
    },
  ],
  [
    { scale: 5, shards: 4, seconds: 1, seed: 33 },
    {
      events: 1000000,
      recordedEvents: 960000,
      writes: 528507,
      throttledWrites: 10152,
      writeUnits: 5285070,
      hottestItemUnitsPerSecond: 1000,
      freshnessP50: 30.314087745838332,
      freshnessP99: 60.03003597020637,
      unrecordedMessages: 400,
    },
  ],
  [
    { scale: 10, shards: 1, seconds: 0.5, seed: 33 },
    {
      events: 1000000,
      recordedEvents: 12400,
      writes: 66247,
      throttledWrites: 24477,
      writeUnits: 1059952,
      hottestItemUnitsPerSecond: 992,
      freshnessP50: 60.243275763669516,
      freshnessP99: 60.488730212042576,
      unrecordedMessages: 9876,
    },
  ],
  [
    { scale: 10, shards: 8, seconds: 0.5, seed: 5 },
    {
      events: 1000000,
      recordedEvents: 968000,
      writes: 546101,
      throttledWrites: 9307,
      writeUnits: 5475406,
      hottestItemUnitsPerSecond: 1000,
      freshnessP50: 30.262447028299796,
      freshnessP99: 60.0677057102765,
      unrecordedMessages: 320,
    },
  ],
];

describe('the simulation', () => {
  it.each(BEFORE_THE_REWRITE)('gives the same outcome as before its rewrite for %o', (scenario, outcome) => {
    // the reference runs waited out a 30 s visibility timeout with no bound on recorders
    expect(simulate({ ...scenario, unitsByMarkers: UNITS_BY_MARKERS, visibilityTimeoutSeconds: 30 })).toEqual(outcome);
  });
});
