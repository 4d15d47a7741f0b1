import type { LimitReached } from '../domain/delivery/limit-reached';
import type { LimitChanged } from '../domain/history/limit-changed';

/** Outbound port: EventBridge when deployed, in-memory lists locally (`GET /_local/events`). */
export interface EventPublisher {
  publishLimitReached(events: readonly LimitReached[]): Promise<void>;
  publishLimitChanged(events: readonly LimitChanged[]): Promise<void>;
}
