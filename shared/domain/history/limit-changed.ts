import type { EntityType } from '../levels';
import type { HistoryEntry } from './limit-history';

/**
 * The `LimitChanged` event: one history entry as it reaches the event bus, whole (the bus is the operator's, not a
 * caller's: no field is left out). `changeId` is the same on every delivery of one change, for consumers to
 * drop repeats.
 */
export interface LimitChanged {
  entityType: EntityType;
  entityId: number;
  changeId: string;
  change: HistoryEntry;
}
