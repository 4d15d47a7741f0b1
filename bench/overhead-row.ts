import { percentile } from './percentile';

/** One operation's row of measure 2 (`npm run bench`), in milliseconds. */
export interface Overhead {
  operation: string;
  /** As Lambda runs the functions: the authorizer and the family's handler, in process. */
  handlerP50Ms: number;
  handlerP99Ms: number;
  /** Through the local server: HTTP, the emulated API Gateway, then the same functions. */
  stackP50Ms: number;
  stackP99Ms: number;
  rawP50Ms: number;
  rawP99Ms: number;
  /** Handler p50 over raw p50: the budgeted ratio. */
  ratioP50: number;
  /** Handler p50 minus raw p50: what the handlers add, in milliseconds. */
  addedP50Ms: number;
  /** Stack p50 over raw p50, the local HTTP hop included. */
  stackRatioP50: number;
  /**
   * The two sides of `addedP50Ms`, each call split by its requests' timestamps: the time at least one AWS request
   * was in flight (the engine's answer and the SDK's work on it), and the rest (the functions' own work and what
   * they waited for between requests). p50s, ms.
   */
  handlerInRequestsP50Ms: number;
  rawInRequestsP50Ms: number;
  handlerOutsideRequestsP50Ms: number;
  rawOutsideRequestsP50Ms: number;
}

const round = (value: number) => Math.round(value * 100) / 100;

/** Each call's time (ms) and the part of it at least one of its requests was in flight. */
export interface Timings {
  total: number[];
  inRequests: number[];
}

export const timings = (): Timings => ({ total: [], inRequests: [] });

const outside = ({ total, inRequests }: Timings) => total.map((time, call) => time - inRequests[call]!);

/** One operation's row from its three columns' times. */
export const overheadRow = (
  operation: string,
  { handler, stack, raw }: { handler: Timings; stack: number[]; raw: Timings },
) => {
  const p50 = { handler: percentile(handler.total, 50), stack: percentile(stack, 50), raw: percentile(raw.total, 50) };
  return {
    operation,
    handlerP50Ms: round(p50.handler),
    handlerP99Ms: round(percentile(handler.total, 99)),
    stackP50Ms: round(p50.stack),
    stackP99Ms: round(percentile(stack, 99)),
    rawP50Ms: round(p50.raw),
    rawP99Ms: round(percentile(raw.total, 99)),
    ratioP50: round(p50.handler / p50.raw),
    addedP50Ms: round(p50.handler - p50.raw),
    stackRatioP50: round(p50.stack / p50.raw),
    handlerInRequestsP50Ms: round(percentile(handler.inRequests, 50)),
    rawInRequestsP50Ms: round(percentile(raw.inRequests, 50)),
    handlerOutsideRequestsP50Ms: round(percentile(outside(handler), 50)),
    rawOutsideRequestsP50Ms: round(percentile(outside(raw), 50)),
  } satisfies Overhead;
};
