import type { benchBulkRead } from './bulk-read';
import type { measureColdStarts } from './cold-start';
import type { measureLimitReached } from './limit-reached';
import type { countRequests } from './request-counts';
import type { measureFanOut } from './webhook-fan-out';

/** `bench/budgets.json`. */
export interface Budgets {
  bulkReadWallMs: number;
  bulkReadCallRssBytes: number;
  deliveryWriteItems: number;
  /** `npm run bench:cpu`: the processor time of an operation through the functions over that of its requests sent raw (p50s). */
  handlerCpuRatioP50: number;
  coldStartRatioToMinimal: Record<string, number>;
  webhookFanOutReadUnits: number;
}

export interface Measured {
  deliveryWrites?: { items: number; [measure: string]: unknown };
  requestCounts: Awaited<ReturnType<typeof countRequests>>;
  coldStarts?: Awaited<ReturnType<typeof measureColdStarts>>;
  bulk: Awaited<ReturnType<typeof benchBulkRead>>;
  limitReached?: Awaited<ReturnType<typeof measureLimitReached>>;
  webhooks?: { fanOut?: Awaited<ReturnType<typeof measureFanOut>> };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Every figure of a run over its budget, in words; none when the run is within every budget. */
export const overBudget = (budgets: Budgets, measured: Measured): string[] => {
  const { deliveryWrites, requestCounts, coldStarts, bulk, limitReached, webhooks } = measured;
  const fanOut = webhooks?.fanOut;
  return [
    ...(deliveryWrites && deliveryWrites.items > budgets.deliveryWriteItems
      ? [`delivery wrote ${deliveryWrites.items} items, budget ${budgets.deliveryWriteItems}`]
      : []),
    ...requestCounts
      .filter((row) => row.requests > row.budget)
      .map((row) => `${row.operation}: ${row.requests} requests, budget ${row.budget}`),
    ...requestCounts
      .filter((row) => row.warmBudget !== undefined && row.warm > row.warmBudget)
      .map((row) => `${row.operation}: ${row.warm} warm requests, budget ${row.warmBudget}`),
    ...(coldStarts ?? []).flatMap((row) => {
      const bound = budgets.coldStartRatioToMinimal[row.bundle] ?? budgets.coldStartRatioToMinimal.default!;
      return row.ratioToMinimal !== undefined && row.ratioToMinimal > bound
        ? [`${row.bundle}: cold start ${row.ratioToMinimal}× the minimal bundle's, budget ${bound}×`]
        : [];
    }),
    ...(bulk.wallMs > budgets.bulkReadWallMs ? [`bulk read took ${bulk.wallMs} ms`] : []),
    ...(bulk.peakRssBytes - bulk.rssBeforeBytes > budgets.bulkReadCallRssBytes
      ? [`bulk read memory ${mb(bulk.peakRssBytes - bulk.rssBeforeBytes)} above the server's baseline`]
      : []),
    ...(bulk.rowsReturned !== bulk.campaigns ? [`bulk read returned ${bulk.rowsReturned} rows`] : []),
    ...(limitReached && limitReached.crossings !== 100
      ? [`LimitReached: ${limitReached.crossings} crossings told, 100 expected`]
      : []),
    ...(fanOut && fanOut.readUnits > budgets.webhookFanOutReadUnits
      ? [`webhook fan-out: ${fanOut.readUnits} read units, budget ${budgets.webhookFanOutReadUnits}`]
      : []),
    ...(fanOut && fanOut.matching !== 20 ? [`webhook fan-out: ${fanOut.matching} deliveries, 20 expected`] : []),
  ];
};

/** `npm run bench:cpu`'s operations whose processor time through the functions is over budget, in words. */
export const cpuOverBudget = (
  budgets: Pick<Budgets, 'handlerCpuRatioP50'>,
  rows: readonly { operation: string; cpuRatioP50: number }[],
): string[] =>
  rows
    .filter((row) => row.cpuRatioP50 > budgets.handlerCpuRatioP50)
    .map(
      (row) =>
        `${row.operation}: processor time ${row.cpuRatioP50}× that of its requests sent raw, budget ${budgets.handlerCpuRatioP50}×`,
    );
