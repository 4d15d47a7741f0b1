import type { DynamoDBRecord } from 'aws-lambda';

/** Room for a record in a dead letter of at most 256 KB, its reason and attributes aside. */
const RECORD_BYTES = 200_000;

/** A stream record the consumer could not decode or judge, with why: it goes to the dead-letter queue at once. */
export interface RejectedRecord {
  record: DynamoDBRecord;
  reason: string;
}

/**
 * The dead letter's body: the record as Lambda handed it over, or, when that is too large for a message, where it is
 * in the stream and the item's key (enough to read the item and replay the change by hand).
 */
export const deadLetterBody = (record: DynamoDBRecord): string => {
  const whole = JSON.stringify(record);
  if (Buffer.byteLength(whole) <= RECORD_BYTES) return whole;
  const { SequenceNumber, Keys, ApproximateCreationDateTime } = record.dynamodb ?? {};
  return JSON.stringify({
    eventName: record.eventName,
    eventSourceARN: record.eventSourceARN,
    dynamodb: { SequenceNumber, Keys, ApproximateCreationDateTime },
    truncated: true,
  });
};

/** The reason of a record that threw while it was decoded or judged: no retry can change a pure step's answer. */
export const rejectionReason = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 900) : 'the record could not be judged';
