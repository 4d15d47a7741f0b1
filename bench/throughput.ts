import { createRecorder } from '../functions/delivery-recorder/handler';
import type { LocalService } from '../infra/local/local-service';
import type { RecordedCommand, recordRequests } from './request-recorder';

export const DELIVERY_MESSAGES = 100;
export const EVENTS_PER_MESSAGE = 100;

/** The last measure of the previous design (one ADD per entity and period bucket, at least once), 2026-11-22. */
export const PREVIOUS_DESIGN = { eventsPerSecond: 17_767, writeRequests: 505, writeItems: 505 };

export interface Throughput {
  events: number;
  messages: number;
  seconds: number;
  eventsPerSecond: number;
  /** DynamoDB write requests, and the items they write (an item written inside a transaction counts twice). */
  writeRequests: number;
  writeItems: number;
  previousDesign: typeof PREVIOUS_DESIGN;
}

const WRITES = /^(PutItem|UpdateItem|DeleteItem|BatchWriteItem|TransactWriteItems)Command$/;

/** Write requests and written items as DynamoDB bills them. */
export const writeCost = (sent: readonly RecordedCommand[]): { requests: number; items: number } => {
  const writes = sent.filter((command) => WRITES.test(command.commandName));
  const items = writes.reduce((sum, { commandName, input }) => {
    if (commandName === 'BatchWriteItemCommand')
      return sum + Object.values((input as { RequestItems: Record<string, unknown[]> }).RequestItems).flat().length;
    if (commandName === 'TransactWriteItemsCommand')
      return sum + 2 * (input as { TransactItems: unknown[] }).TransactItems.length;
    return sum + 1;
  }, 0);
  return { requests: writes.length, items };
};

/** 100 FIFO messages of 100 impressions each over 50 banners, as SQS hands them to the recorder. */
export const deliveryMessages = (group: string) =>
  Array.from({ length: DELIVERY_MESSAGES }, (_, m) => ({
    messageId: `${group}-${m}`,
    body: Array.from({ length: EVENTS_PER_MESSAGE }, (_, e) => ({
      kind: 'impression',
      bannerId: 200_001 + ((m * EVENTS_PER_MESSAGE + e) % 50),
      revenue: '0.001',
    })),
  }));

/** The recorder, called as Lambda would call it, on one batch of the scenario. */
export const measureThroughput = async (
  service: LocalService,
  recorder: ReturnType<typeof recordRequests>,
): Promise<Throughput> => {
  const record = createRecorder(service.dependencies);
  const batch = {
    Records: deliveryMessages('throughput').map((message, i) => ({
      messageId: message.messageId,
      body: JSON.stringify(message.body),
      attributes: { MessageGroupId: 'bench', SequenceNumber: String(i + 1), SentTimestamp: String(Date.now()) },
    })),
  } as never;
  let seconds = 0;
  const sent = await recorder.during(async () => {
    const started = performance.now();
    const { response } = await record(batch);
    seconds = (performance.now() - started) / 1000;
    if (response.batchItemFailures.length > 0) throw new Error('the recorder failed messages');
  });
  const events = DELIVERY_MESSAGES * EVENTS_PER_MESSAGE;
  const { requests, items } = writeCost(sent);
  return {
    events,
    messages: DELIVERY_MESSAGES,
    seconds: Math.round(seconds * 1000) / 1000,
    eventsPerSecond: Math.round(events / seconds),
    writeRequests: requests,
    writeItems: items,
    previousDesign: PREVIOUS_DESIGN,
  };
};
