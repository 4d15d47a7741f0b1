import type { EntityType } from '../table/keys';

/** A reset asked for by reset.do, applied by the hourly flush. */
export interface ResetRequest {
  entityType: EntityType;
  entityId: number;
  /** The flush drops the reset when the record was deleted (or replaced) meanwhile. */
  limitId: number;
  counters: string[];
  requestedAt: string;
  requestedBy: number;
}

/** Outbound port: SQS `queued-resets` when deployed, an in-process queue locally. */
export interface ResetQueue {
  enqueue(request: ResetRequest): Promise<void>;
}
