import { describe, expect, it } from 'vitest';
import { measurePauseCost, pauseCostOf } from '../../../bench/pause-cost';

describe("the machine's pause cost", () => {
  it("takes the median of the rounds' times, and the median of each round's own ratio", () => {
    const cost = pauseCostOf([
      { backToBackUs: 20, afterPauseUs: 100 },
      { backToBackUs: 40, afterPauseUs: 60 },
      { backToBackUs: 30, afterPauseUs: 90 },
    ]);
    // ratios per round 5, 1.5 and 3: a slow stretch that slows both sides of a round does not move it
    expect(cost).toEqual({ backToBackUs: 30, afterPauseUs: 90, ratio: 3 });
  });

  it('times the workload both ways', () => {
    const cost = measurePauseCost({ rounds: 3, calls: 5, pauseMs: 0.2 });
    expect(cost.backToBackUs).toBeGreaterThan(0);
    expect(cost.afterPauseUs).toBeGreaterThan(0);
    expect(cost.ratio).toBeGreaterThan(0);
  });
});
