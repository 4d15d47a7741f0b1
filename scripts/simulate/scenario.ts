import { DELIVERY_QUEUE } from '../../infra/cdk/delivery-settings';

/** The SDK's standard retries (3 attempts, 100 ms base, doubling), then the batch waits out its visibility timeout. */
export const RETRY = { attempts: 3, baseSeconds: 0.1 } as const;

export interface Scenario {
  scale: number;
  shards: number;
  seconds: number;
  seed: number;
  /** Write units of one write to an item holding the markers of n message groups (from the real planner). */
  unitsByMarkers: readonly number[];
  /** How long a failed batch's messages stay hidden; the delivery queue's own (360 s) unless given. */
  visibilityTimeoutSeconds?: number;
  /** Batches in flight at once (the trigger's maximum concurrency); unbounded unless given. */
  recorders?: number;
}

export interface Outcome {
  events: number;
  recordedEvents: number;
  writes: number;
  throttledWrites: number;
  writeUnits: number;
  hottestItemUnitsPerSecond: number;
  freshnessP50: number;
  freshnessP99: number;
  /** Messages still not recorded when the run ended (their freshness counts up to the end). */
  unrecordedMessages: number;
}

/** How long a write waits before its next attempt: the SDK's back-off, then, after its last, the visibility timeout. */
export const retryDelay = (
  attempt: number,
  visibilityTimeoutSeconds: number = DELIVERY_QUEUE.visibilityTimeoutSeconds,
): number =>
  attempt % RETRY.attempts === 0 ? visibilityTimeoutSeconds : RETRY.baseSeconds * 2 ** ((attempt % RETRY.attempts) - 1);
