import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { RequestTap, RequestTaps } from '../infra/local/request-taps';

export interface RecordedCommand {
  /** The SDK client that sent it: `DynamoDBClient`, `SQSClient`. */
  clientName: string;
  commandName: string;
  input: unknown;
  /** When it was sent and answered (ms, performance clock): what runs in parallel, what in series. */
  startedAt: number;
  endedAt: number;
}

/** The serial depth of a call: the longest chain of requests each sent after the one before it was answered. */
export const roundTrips = (sent: readonly RecordedCommand[]): number => {
  const ordered = [...sent].sort((a, b) => a.startedAt - b.startedAt);
  const depth: number[] = [];
  ordered.forEach((command, index) => {
    const before = ordered
      .slice(0, index)
      .filter((other, j) => other.endedAt <= command.startedAt && depth[j] !== undefined);
    depth[index] = 1 + Math.max(0, ...before.map((other) => depth[ordered.indexOf(other)]!));
  });
  return Math.max(0, ...depth);
};

/**
 * The time (ms) at least one request was in flight: the union of the requests' intervals, so that requests sent in
 * parallel count once. What a call spends outside it is its own work and its waits between requests.
 */
export const timeInRequests = (sent: readonly RecordedCommand[]): number => {
  let total = 0;
  let coveredUntil = Number.NEGATIVE_INFINITY;
  for (const { startedAt, endedAt } of [...sent].sort((a, b) => a.startedAt - b.startedAt)) {
    total += Math.max(0, endedAt - Math.max(startedAt, coveredUntil));
    coveredUntil = Math.max(coveredUntil, endedAt);
  }
  return total;
};

/** An SDK client, or the local service's table client through its taps (which its own stack caches). */
type RecordedClient = Pick<DynamoDBClient | SQSClient, 'middlewareStack'> | RequestTaps;

/**
 * Records every request the clients send (once per command, before the SDK's retries), in the order sent: what an
 * operation costs, and the exact commands to replay raw for the overhead measure. A client's own stack must get the
 * recorder before its first request: `cacheMiddleware` ignores what is added later.
 */
export const recordRequests = (...clients: RecordedClient[]) => {
  let recording: RecordedCommand[] = [];
  const recorder: RequestTap = (next, context) => async (args) => {
    const entry: RecordedCommand = {
      clientName: String(context.clientName),
      commandName: String(context.commandName),
      // the input as sent, by reference: the replay copies it before its clock starts
      input: args.input,
      startedAt: performance.now(),
      endedAt: Number.POSITIVE_INFINITY,
    };
    recording.push(entry);
    try {
      return await next(args);
    } finally {
      entry.endedAt = performance.now();
    }
  };
  const name = 'benchRequestRecorder';
  for (const client of clients)
    if ('middlewareStack' in client)
      (client.middlewareStack as DynamoDBClient['middlewareStack']).add(recorder as never, {
        step: 'initialize',
        name,
        priority: 'high',
      });
    else client.add(recorder, { step: 'initialize', name });
  return {
    /** Runs `work` and returns what it sent. */
    async during(work: () => Promise<unknown>): Promise<RecordedCommand[]> {
      recording = [];
      await work();
      const sent = recording;
      recording = [];
      return sent;
    },
  };
};
