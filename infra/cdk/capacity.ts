import { DELIVERY_QUEUE, RECORDER_EVENTS_PER_SECOND } from './delivery-settings';

/** The load a deployment is sized for (context settings, docs/operations.md). */
export interface Load {
  /** Delivery events a second (`deliveryEventsPerSecond`). */
  deliveryEventsPerSecond: number;
  /** Events in one delivery message (`eventsPerMessage`). */
  eventsPerMessage: number;
  /** Table write units one delivery batch takes (`writeUnitsPerBatch`; `npm run simulate` measures it). */
  writeUnitsPerBatch: number;
  /** API requests a second, all partners together (`apiRequestsPerSecond`). */
  apiRequestsPerSecond: number;
}

/** What DynamoDB gives an on-demand table from the start; warm throughput is never set below it. */
export const ON_DEMAND_START = { readUnitsPerSecond: 12_000, writeUnitsPerSecond: 4_000 } as const;

/** A warm limit read: entity, record and counter item, strongly consistent, each under 4 KB. */
const READ_UNITS_PER_API_REQUEST = 3;
/** At most one item under 1 KB a request (a body-signed partner's meter, a limit write's own item). */
const WRITE_UNITS_PER_API_REQUEST = 1;

export const deliveryBatchesPerSecond = (load: Load): number =>
  load.deliveryEventsPerSecond / (load.eventsPerMessage * DELIVERY_QUEUE.batchSize);

/** The table's throughput at the configured load: delivery's counter writes and the API's reads and writes. */
export const tableThroughput = (load: Load) => ({
  writeUnitsPerSecond: Math.ceil(
    deliveryBatchesPerSecond(load) * load.writeUnitsPerBatch + load.apiRequestsPerSecond * WRITE_UNITS_PER_API_REQUEST,
  ),
  readUnitsPerSecond: Math.ceil(load.apiRequestsPerSecond * READ_UNITS_PER_API_REQUEST),
});

/**
 * Warm throughput: the load's, never below what a new on-demand table has anyway; none at all where the load fits
 * within that (a development stage's), since warming is billed and never lowered.
 */
export const warmThroughput = (load: Load) => {
  const needed = tableThroughput(load);
  if (
    needed.readUnitsPerSecond <= ON_DEMAND_START.readUnitsPerSecond &&
    needed.writeUnitsPerSecond <= ON_DEMAND_START.writeUnitsPerSecond
  )
    return undefined;
  return {
    readUnitsPerSecond: Math.max(needed.readUnitsPerSecond, ON_DEMAND_START.readUnitsPerSecond),
    writeUnitsPerSecond: Math.max(needed.writeUnitsPerSecond, ON_DEMAND_START.writeUnitsPerSecond),
  };
};

/** What the table must carry from its first request: its warm throughput, or the load's own where it is not warmed. */
export const carriedThroughput = (load: Load) => warmThroughput(load) ?? tableThroughput(load);

/** Recorders the load needs at once (each records about 20,000 events a second). */
export const recordersNeeded = (load: Load): number =>
  Math.ceil(load.deliveryEventsPerSecond / RECORDER_EVENTS_PER_SECOND);
