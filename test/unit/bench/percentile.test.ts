import { describe, expect, it } from 'vitest';
import { median, percentile } from '../../../bench/percentile';

describe("the bench's percentiles", () => {
  it('read the sorted values without reordering the ones given', () => {
    const values = [5, 1, 4, 2, 3];
    expect(median(values)).toBe(3);
    expect(percentile(values, 99)).toBe(5);
    expect(percentile(values, 0)).toBe(1);
    expect(values).toEqual([5, 1, 4, 2, 3]);
  });

  it('take the higher of the two middle values for an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(3);
  });
});
