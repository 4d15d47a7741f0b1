import type { AutoSharding } from '../domain/delivery/counter-shards';
import type { TableStore } from '../adapters/dynamodb/table-store';
import type { Clock } from '../ports/clock';
import type { DeadLetterSink } from '../ports/dead-letters';

export interface RecorderPorts {
  store: TableStore;
  clock: Clock;
  deadLetters: DeadLetterSink;
}

/** One message of the delivery queue, with its place in its FIFO message group. */
export interface DeliveryMessage {
  messageId: string;
  body: string;
  /** SQS FIFO `MessageGroupId` and `SequenceNumber`; a message without them cannot be applied exactly once. */
  group?: string;
  sequence?: string;
  /** When the queue received it (ms): the instant of its events that carry no `at`, the same on every redelivery. */
  sentAt?: number;
  /** SQS `ApproximateReceiveCount`: how many times the queue has handed the message out, this time included. */
  receiveCount?: number;
  /**
   * Set on the replay of a dead letter (see `replayOfDeadLetter`): the only counter items it may change, those that
   * did not take it. Its group is fresh, so the redelivery horizon does not hold it back.
   */
  replayTo?: readonly string[];
}

/** How the recorder is set up (see the delivery-recorder function's environment). */
export interface RecorderOptions {
  /** How far an event's `at` may lie after its message's receive time; `DEFAULT_FUTURE_TOLERANCE_MS` when absent. */
  futureToleranceMs?: number;
  /** Shards an advertiser's counters above a write rate (see `followTally`); off when absent. */
  autoShard?: AutoSharding;
  /** Markers a counter item holds itself; `INLINE_MARKERS_PER_ITEM` when absent (fewer only in tests). */
  inlineMarkers?: number;
}

export interface RecordingSummary {
  messages: number;
  recordedEvents: number;
  unknownEntityEvents: number;
  /** Events dated too far past their message's receive time, counted at the receive time. */
  futureDatedEvents: number;
  deadLettered: { messageId: string; reason: string }[];
  /** Messages every counter item they touch had already applied: delivered again, counted once. */
  duplicateMessages: number;
  counterWrites: number;
  /** Counter writes marked for the stream's trigger as maybe reaching a cap: each one invokes `history-events`. */
  nearCapWrites: number;
}

export interface RecordingResult {
  /** Messages to be delivered again (SQS partial batch response), in group order. */
  failedMessageIds: string[];
  summary: RecordingSummary;
}
