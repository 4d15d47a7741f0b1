/** The value `p` percent of the way up the sorted values (the higher of the two middle ones for an even p50). */
export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

export const median = (values: readonly number[]): number => percentile(values, 50);
