import { PutEventsCommand, type EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { LimitReached } from '../../domain/delivery/limit-reached';
import { exactJson } from '../../http/exact-json';
import type { EventPublisher } from '../../ports/event-publisher';

export const EVENT_SOURCE = 'delivery-limits';
export const LIMIT_REACHED = 'LimitReached';
const ENTRIES_PER_CALL = 10;

export class EventBridgePublisher implements EventPublisher {
  constructor(
    private readonly client: EventBridgeClient,
    private readonly busName: string,
  ) {}

  async publishLimitReached(events: readonly LimitReached[]): Promise<void> {
    for (let start = 0; start < events.length; start += ENTRIES_PER_CALL) {
      const result = await this.client.send(
        new PutEventsCommand({
          Entries: events.slice(start, start + ENTRIES_PER_CALL).map((event) => ({
            EventBusName: this.busName,
            Source: EVENT_SOURCE,
            DetailType: LIMIT_REACHED,
            Detail: exactJson(event),
          })),
        }),
      );
      if (result.FailedEntryCount)
        throw new Error(`EventBridge refused ${result.FailedEntryCount} LimitReached events`);
    }
  }
}
