import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface RecordedCommand {
  commandName: string;
  input: unknown;
}

/**
 * Records every DynamoDB request a client sends (once per command, before the SDK's retries): what an
 * operation costs, and the exact commands to replay raw for the overhead measure.
 */
export const recordRequests = (client: DynamoDBDocumentClient) => {
  let recording: RecordedCommand[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      recording.push({
        commandName: String((context as { commandName?: string }).commandName),
        input: structuredClone(args.input),
      });
      return next(args);
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
