/** Runs `work` over `items` with at most `limit` in flight; results keep the order of `items`. */
export const inParallel = async <T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> => {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
};

/** Jittered exponential backoff after a lost optimistic-locking race: up to 100 ms. */
export const raceBackoff = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 5 * 2 ** Math.min(attempt, 5))));
