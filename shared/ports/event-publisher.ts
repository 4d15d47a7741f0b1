import type { LimitReached } from '../domain/delivery/limit-reached';

/** Outbound port: EventBridge when deployed, an in-memory list locally (`GET /_local/events`). */
export interface EventPublisher {
  publishLimitReached(events: readonly LimitReached[]): Promise<void>;
}
