import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { recordDelivery, type RecordingSummary } from '../../shared/delivery/recorder';
import { dependenciesFromEnvironment, type Dependencies } from '../../shared/runtime/dependencies';

/** The SQS consumer, answering the partial batch response and, for the local server, what it recorded. */
export const createRecorder =
  (dependencies: Dependencies) =>
  async (event: SQSEvent): Promise<{ response: SQSBatchResponse; summary: RecordingSummary }> => {
    const { failedMessageIds, summary } = await recordDelivery(
      { store: dependencies.store, clock: dependencies.clock, events: dependencies.events, deadLetters: dependencies.deadLetters },
      event.Records.map((record) => ({ messageId: record.messageId, body: record.body })),
    );
    return { response: { batchItemFailures: failedMessageIds.map((itemIdentifier) => ({ itemIdentifier })) }, summary };
  };

export const createHandler = (dependencies: Dependencies) => {
  const recorder = createRecorder(dependencies);
  return async (event: SQSEvent): Promise<SQSBatchResponse> => (await recorder(event)).response;
};

export const handler = createHandler(dependenciesFromEnvironment());
