import type { ResetRequest } from './reset-queue';

export interface ReceivedReset {
  receipt: string;
  /** Undefined when the message is not a reset request; it is left to reach the dead-letter queue. */
  request?: ResetRequest;
}

/** Inbound port of the flush: SQS `queued-resets` when deployed, the in-process queue locally. */
export interface ResetSource {
  receive(max: number): Promise<ReceivedReset[]>;
  acknowledge(receipts: readonly string[]): Promise<void>;
}

export const parseResetRequest = (body: string): ResetRequest | undefined => {
  try {
    const value = JSON.parse(body) as Partial<ResetRequest>;
    const valid =
      typeof value.entityType === 'string' &&
      Number.isInteger(value.entityId) &&
      Number.isInteger(value.limitId) &&
      Array.isArray(value.counters) &&
      value.counters.every((name) => typeof name === 'string');
    return valid ? (value as ResetRequest) : undefined;
  } catch {
    return undefined;
  }
};
