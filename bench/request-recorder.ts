import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';

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

/**
 * Records every request the clients send (once per command, before the SDK's retries), in the order sent: what an
 * operation costs, and the exact commands to replay raw for the overhead measure.
 */
export const recordRequests = (...clients: Pick<DynamoDBClient | SQSClient, 'middlewareStack'>[]) => {
  let recording: RecordedCommand[] = [];
  for (const client of clients)
    (client.middlewareStack as DynamoDBClient['middlewareStack']).add(
      (next, context) => async (args) => {
        const entry: RecordedCommand = {
          clientName: String((context as { clientName?: string }).clientName),
          commandName: String((context as { commandName?: string }).commandName),
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
      },
      { step: 'initialize', name: 'benchRequestRecorder', priority: 'high' },
    );
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
