import { describe, expect, it } from 'vitest';
import { seededRandom, zipfSampler, zipfWeights } from '../../../scripts/simulate/random';

const draws = (seed: number, count: number) => {
  const sample = zipfSampler(1_000, 1, seededRandom(seed));
  return Array.from({ length: count }, sample);
};

describe('the Zipf sampler', () => {
  it('draws the same ranks for the same seed, and others for another seed', () => {
    expect(draws(7, 1_000)).toEqual(draws(7, 1_000));
    expect(draws(8, 1_000)).not.toEqual(draws(7, 1_000));
  });

  it('draws each rank about as often as Zipf’s law weighs it', () => {
    const counts = new Array<number>(1_000).fill(0);
    for (const rank of draws(1, 200_000)) counts[rank]!++;
    const weights = zipfWeights(1_000, 1);
    for (const rank of [0, 1, 9]) expect(Math.abs(counts[rank]! / 200_000 - weights[rank]!)).toBeLessThan(0.005);
    expect(counts[0]! / counts[9]!).toBeGreaterThan(8);
  });
});
