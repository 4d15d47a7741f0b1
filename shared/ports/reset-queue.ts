import type { ResetRequest } from '../domain/resets/reset-request';

/** Outbound port of reset.do: SQS `queued-resets` when deployed, an in-process queue locally. */
export interface ResetQueue {
  enqueue(request: ResetRequest): Promise<void>;
}

export interface ReceivedReset {
  receipt: string;
  /** Undefined when the message is not a reset request; it is left to reach the dead-letter queue. */
  request?: ResetRequest;
}

/** Inbound port of the hourly flush, over the same queue. */
export interface ResetSource {
  receive(max: number): Promise<ReceivedReset[]>;
  acknowledge(receipts: readonly string[]): Promise<void>;
}
