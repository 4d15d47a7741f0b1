/** Where a malformed message goes at once, with its reason, instead of being retried until it expires. */
export interface DeadLetterSink {
  send(body: string, reason: string): Promise<void>;
}
