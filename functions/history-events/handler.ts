import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { limitChangedOf } from '../../shared/adapters/dynamodb/history-stream';
import { describeError, logger } from '../../shared/logger';
import { eventsFromEnvironment, type Ports } from '../../shared/runtime/dependencies';

/** EventBridge takes 10 entries per call. */
const EVENTS_PER_CALL = 10;

/**
 * The table stream's consumer: every new history entry becomes a LimitChanged event on the bus, in stream order.
 * When a call fails, the answer names the first record it carried: Lambda retries the stream from there, so each
 * change is published at least once (consumers drop repeats by `changeId`).
 */
export const createHandler =
  ({ events }: Ports<'events'>) =>
  async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const changes = event.Records.flatMap((record) => {
      const change = limitChangedOf(record);
      return change ? [{ change, sequence: record.dynamodb?.SequenceNumber ?? '' }] : [];
    });
    for (let start = 0; start < changes.length; start += EVENTS_PER_CALL) {
      const call = changes.slice(start, start + EVENTS_PER_CALL);
      try {
        await events.publishLimitChanged(call.map(({ change }) => change));
      } catch (error) {
        logger.error('publishing LimitChanged events failed; the stream retries from the first', describeError(error));
        return { batchItemFailures: [{ itemIdentifier: call[0]!.sequence }] };
      }
    }
    return { batchItemFailures: [] };
  };

export const handler = createHandler({ events: eventsFromEnvironment() });
