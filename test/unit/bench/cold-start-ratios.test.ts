import { describe, expect, it } from 'vitest';
import { ratiosToMinimal } from '../../../bench/cold-start-ratios';

describe("the cold start's ratios to the minimal bundle", () => {
  it("leave the call's own work out of the cold start, and keep it in the first answer's ratio", () => {
    // minimal: first answer at 200 ms, 10 ms of it the call's own work; the bundle at 300, 60 of it its call's
    const minimal = { firsts: [200, 200, 200], warms: [10, 10, 10] };
    const bundle = { firsts: [300, 300, 300], warms: [60, 60, 60] };
    expect(ratiosToMinimal(bundle, minimal)).toEqual({ firstResponseRatio: 1.5, ratioToMinimal: 1.26 });
  });

  it('compare each round with the same round of the minimal bundle, then take the median', () => {
    // the second round ran in a slow stretch: twice as long for both bundles
    const minimal = { firsts: [100, 200, 100], warms: [0, 0, 0] };
    const bundle = { firsts: [110, 220, 130], warms: [0, 0, 0] };
    expect(ratiosToMinimal(bundle, minimal)).toEqual({ firstResponseRatio: 1.1, ratioToMinimal: 1.1 });
  });
});
