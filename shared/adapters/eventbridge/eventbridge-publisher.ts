import { PutEventsCommand, type EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { LimitReached } from '../../domain/delivery/limit-reached';
import type { LimitChanged } from '../../domain/history/limit-changed';
import { exactJson } from '../../support/exact-json';
import type { EventPublisher } from '../../ports/event-publisher';

import { EVENT_SOURCE, LIMIT_CHANGED, LIMIT_REACHED } from '../../domain/event-names';

export { EVENT_SOURCE, LIMIT_CHANGED, LIMIT_REACHED };
const ENTRIES_PER_CALL = 10;

export class EventBridgePublisher implements EventPublisher {
  constructor(
    private readonly client: EventBridgeClient,
    private readonly busName: string,
  ) {}

  publishLimitReached(events: readonly LimitReached[]): Promise<void> {
    return this.publish(LIMIT_REACHED, events);
  }

  publishLimitChanged(events: readonly LimitChanged[]): Promise<void> {
    return this.publish(LIMIT_CHANGED, events);
  }

  /** In calls of 10, in order; a call EventBridge refuses in part fails, and the calls after it are not made. */
  private async publish(detailType: string, events: readonly object[]): Promise<void> {
    for (let start = 0; start < events.length; start += ENTRIES_PER_CALL) {
      const result = await this.client.send(
        new PutEventsCommand({
          Entries: events.slice(start, start + ENTRIES_PER_CALL).map((event) => ({
            EventBusName: this.busName,
            Source: EVENT_SOURCE,
            DetailType: detailType,
            Detail: exactJson(event),
          })),
        }),
      );
      if (result.FailedEntryCount)
        throw new Error(`EventBridge refused ${result.FailedEntryCount} ${detailType} events`);
    }
  }
}
