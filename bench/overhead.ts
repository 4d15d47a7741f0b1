import * as lib from '@aws-sdk/lib-dynamodb';
import type { LocalService } from '../infra/local/local-service';
import { BENCH_OPERATIONS } from './operations';
import type { RecordedCommand, recordRequests } from './request-recorder';

export interface Overhead {
  operation: string;
  stackP50Ms: number;
  stackP99Ms: number;
  rawP50Ms: number;
  rawP99Ms: number;
  ratioP50: number;
}

/** The document-client command that sends each low-level command. */
const COMMANDS: Record<string, new (input: never) => lib.ServiceInputTypes & object> = {
  GetItemCommand: lib.GetCommand,
  PutItemCommand: lib.PutCommand,
  UpdateItemCommand: lib.UpdateCommand,
  DeleteItemCommand: lib.DeleteCommand,
  QueryCommand: lib.QueryCommand,
  BatchGetItemCommand: lib.BatchGetCommand,
  BatchWriteItemCommand: lib.BatchWriteCommand,
  TransactWriteItemsCommand: lib.TransactWriteCommand,
} as never;

const MEASURED = [
  'limit read',
  'set.do (existing record)',
  'update.do',
  'reset.do',
  'per-action list',
  'per-action add (existing)',
  'campaign bulk read, 100 ids',
  'banner bulk read, 100 ids',
];

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/** Sends the same DynamoDB requests an operation sent, in the same order, straight through the SDK. */
const replay = async (client: lib.DynamoDBDocumentClient, commands: readonly RecordedCommand[]): Promise<void> => {
  for (const { commandName, input } of commands) {
    const Command = COMMANDS[commandName];
    if (!Command) throw new Error(`no replay for ${commandName}`);
    // a conditional write that loses on replay costs the same round trip
    await client.send(new Command(structuredClone(input) as never) as never).catch((error: Error) => {
      if (!/ConditionalCheckFailed|TransactionCanceled/.test(error.name)) throw error;
    });
  }
};

/**
 * p50 and p99 of each operation through the whole stack (HTTP, emulated API Gateway, authorizer, handler)
 * against the raw SDK calls the same operation makes, on the same data, interleaved call for call.
 */
export const measureOverhead = async (
  service: LocalService,
  recorder: ReturnType<typeof recordRequests>,
  iterations: number,
): Promise<Overhead[]> => {
  const results: Overhead[] = [];
  const client = service.dependencies.store.client;
  for (const operation of BENCH_OPERATIONS.filter((candidate) => MEASURED.includes(candidate.name))) {
    const stack: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < iterations; i++) {
      let started = performance.now();
      const sent = await recorder.during(async () => {
        const response = await operation.run(service, undefined, i);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${operation.name} answered ${response.status}`);
      });
      stack.push(performance.now() - started);
      started = performance.now();
      await replay(client, sent);
      raw.push(performance.now() - started);
    }
    const round = (value: number) => Math.round(value * 100) / 100;
    results.push({
      operation: operation.name,
      stackP50Ms: round(percentile(stack, 50)),
      stackP99Ms: round(percentile(stack, 99)),
      rawP50Ms: round(percentile(raw, 50)),
      rawP99Ms: round(percentile(raw, 99)),
      ratioP50: round(percentile(stack, 50) / percentile(raw, 50)),
    });
  }
  return results;
};
