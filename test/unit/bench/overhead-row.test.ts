import { describe, expect, it } from 'vitest';
import { overheadRow } from '../../../bench/overhead-row';

describe("measure 2's row of an operation", () => {
  it('splits each call into the time its requests were in flight and the rest, and takes the p50 of each', () => {
    const row = overheadRow('update.do', {
      handler: { total: [12, 10, 14], inRequests: [8, 9, 10] },
      stack: [15, 16, 17],
      raw: { total: [9, 10, 11], inRequests: [8.9, 9.9, 10.75] },
    });
    expect(row).toMatchObject({
      handlerP50Ms: 12,
      rawP50Ms: 10,
      addedP50Ms: 2,
      ratioP50: 1.2,
      stackP50Ms: 16,
      handlerInRequestsP50Ms: 9,
      rawInRequestsP50Ms: 9.9,
      // per call 4, 1 and 4: the p50 of the differences, not the difference of the p50s
      handlerOutsideRequestsP50Ms: 4,
      rawOutsideRequestsP50Ms: 0.1,
    });
  });
});
