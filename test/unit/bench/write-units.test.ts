import { describe, expect, it } from 'vitest';
import { summariseWrites, type ItemWrite } from '../../../bench/write-units';

const write = (sizeBefore: number, sizeAfter: number, units: number): ItemWrite => ({
  command: 'UpdateItemCommand',
  key: 'ADVERTISER#7 COUNTERS',
  sizeBefore,
  sizeAfter,
  units,
});

describe('the write units of a measured run', () => {
  it('totals the units billed, counts refused requests apart and flags where DynamoDB Local reported otherwise', () => {
    const summary = summariseWrites([
      { items: [write(300, 360, 1)], reportedUnits: 1 },
      { items: [write(2_900, 2_980, 3)], reportedUnits: 2 },
      { items: [write(2_980, 2_980, 3)] },
      { items: [write(0, 500, 2), write(100, 0, 2)], reportedUnits: 4 },
    ]);
    expect(summary).toEqual({
      requests: 4,
      items: 5,
      units: 11,
      failedRequests: 1,
      reportedUnits: 7,
      requestsDiffering: 1,
      itemsByUnits: { 1: 1, 2: 2, 3: 2 },
      largestItemBytes: 2_980,
    });
  });
});
