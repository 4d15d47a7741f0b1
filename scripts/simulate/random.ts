/** A seeded 32-bit generator (mulberry32): the same seed gives the same run. Returns numbers in [0, 1). */
export const seededRandom = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** The probabilities of ranks 1..n under Zipf's law with exponent s: rank k weighs 1/k^s. */
export const zipfWeights = (n: number, s: number): number[] => {
  const raw = Array.from({ length: n }, (_, index) => 1 / (index + 1) ** s);
  const total = raw.reduce((sum, weight) => sum + weight, 0);
  return raw.map((weight) => weight / total);
};

/**
 * Draws ranks 0..n-1 (0 the most frequent) by Zipf's law, in constant time a draw (Walker's alias method), from
 * the given generator.
 */
export const zipfSampler = (n: number, s: number, random: () => number): (() => number) => {
  const scaled = zipfWeights(n, s).map((weight) => weight * n);
  const threshold = new Float64Array(n).fill(1);
  const alias = new Int32Array(n).map((_, index) => index);
  const small = scaled.flatMap((weight, index) => (weight < 1 ? [index] : []));
  const large = scaled.flatMap((weight, index) => (weight >= 1 ? [index] : []));
  while (small.length > 0 && large.length > 0) {
    const low = small.pop()!;
    const high = large[large.length - 1]!;
    threshold[low] = scaled[low]!;
    alias[low] = high;
    scaled[high] = scaled[high]! + scaled[low]! - 1;
    if (scaled[high]! < 1) small.push(large.pop()!);
  }
  return () => {
    const position = random() * n;
    const column = Math.floor(position);
    return position - column < threshold[column]! ? column : alias[column]!;
  };
};
