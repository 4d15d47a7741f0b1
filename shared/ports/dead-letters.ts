/** Where a delivery message was in its queue, and what refused it: what a later replay needs. */
export interface DeadLetterDetails {
  messageId: string;
  group: string;
  sequence: string;
  /** When the queue received it (ms). */
  sentAt: number;
  /** The counter items that did not take it (`BANNER#1000`, `CAMPAIGN#100|7`); the others counted it. */
  targets: string[];
  /** The requests the store refused, as sent. */
  requests: unknown[];
}

/**
 * Where a message goes at once, with its reason, instead of being retried until it expires: a malformed message
 * (no details), or a valid one the store refused to count (a defect: with its details, to be replayed once fixed).
 */
export interface DeadLetterSink {
  send(body: string, reason: string, details?: DeadLetterDetails): Promise<void>;
}
