import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { recordDelivery, type RecordingSummary } from '../../shared/delivery/recorder';
import { systemClock } from '../../shared/ports/clock';
import { deadLettersFromEnvironment, storeFromEnvironment, type Ports } from '../../shared/runtime/dependencies';

type RecorderPorts = Ports<'store' | 'clock' | 'deadLetters'>;

/** The SQS consumer, answering the partial batch response and, for the local server, what it recorded. */
export const createRecorder =
  (dependencies: RecorderPorts) =>
  async (event: SQSEvent): Promise<{ response: SQSBatchResponse; summary: RecordingSummary }> => {
    const { failedMessageIds, summary } = await recordDelivery(
      dependencies,
      event.Records.map((record) => ({
        messageId: record.messageId,
        body: record.body,
        ...(record.attributes?.MessageGroupId !== undefined ? { group: record.attributes.MessageGroupId } : {}),
        ...(record.attributes?.SequenceNumber !== undefined ? { sequence: record.attributes.SequenceNumber } : {}),
        ...(record.attributes?.SentTimestamp !== undefined ? { sentAt: Number(record.attributes.SentTimestamp) } : {}),
      })),
    );
    return { response: { batchItemFailures: failedMessageIds.map((itemIdentifier) => ({ itemIdentifier })) }, summary };
  };

export const createHandler = (dependencies: RecorderPorts) => {
  const recorder = createRecorder(dependencies);
  return async (event: SQSEvent): Promise<SQSBatchResponse> => (await recorder(event)).response;
};

export const handler = createHandler({
  store: storeFromEnvironment(),
  clock: systemClock,
  deadLetters: deadLettersFromEnvironment(),
});
