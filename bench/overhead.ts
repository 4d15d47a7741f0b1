import { SendMessageCommand } from '@aws-sdk/client-sqs';
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { LocalService } from '../infra/local/local-service';
import { createDynamoDbClient } from '../shared/adapters/dynamodb/dynamodb-client';
import { TableStore } from '../shared/adapters/dynamodb/table-store';
import { lambdaInvocations } from './lambda-invocation';
import { BENCH_OPERATIONS, send, type BenchOperation } from './operations';
import { SqsResetQueue } from '../shared/adapters/sqs/sqs-reset-queue';
import { startSqsEndpoint } from './sqs-endpoint';
import { recordRequests, timeInRequests, type RecordedCommand } from './request-recorder';
import { overheadRow, timings, type Overhead } from './overhead-row';

const COMMANDS: Record<string, new (input: never) => object> = {
  SendMessageCommand,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
  DeleteItemCommand,
  QueryCommand,
  BatchGetItemCommand,
  BatchWriteItemCommand,
  TransactWriteItemsCommand,
};

const MEASURED = [
  'limit read',
  'set.do (existing record)',
  'update.do',
  'reset.do',
  'DELETE limits.do',
  'per-action list',
  'per-action add (existing)',
  'campaign bulk read, 100 ids',
  'banner bulk read, 100 ids',
];

/** The same AWS requests an operation sent, ready to go again in their order, each through its client. */
type Replay = { clientName: string; command: object }[];

const replayOf = (sent: readonly RecordedCommand[]): Replay =>
  sent.map(({ clientName, commandName, input }) => {
    const Command = COMMANDS[commandName];
    if (!Command) throw new Error(`no replay for ${commandName}`);
    return { clientName, command: new Command(structuredClone(input) as never) };
  });

/** An SDK client, as far as a replay uses it. */
interface Sender {
  send(command: never): Promise<unknown>;
}

const isRefusal = (error: Error) => /ConditionalCheckFailed|TransactionCanceled/.test(error.name);

/**
 * Sends a replay's requests in their order, as the operation did. A conditional write refused on replay (the
 * handler's call having moved the record on) is still a round trip, if a cheaper one; an operation that restores its
 * data before every call must replay as it committed, so a refusal there fails the bench.
 */
const sendReplay = async (clients: Record<string, Sender>, replay: Replay, operation: BenchOperation) => {
  for (const { clientName, command } of replay)
    await clients[clientName]!.send(command as never).catch((error: Error) => {
      if (!isRefusal(error)) throw error;
      if (operation.restore)
        throw new Error(`${operation.name}: its raw replay was refused (${error.name}) though its data was restored`, {
          cause: error,
        });
    });
};

/**
 * The table and the reset queue as a Lambda function has them (`storeFromEnvironment`, `resetQueueFromEnvironment`):
 * the SDK's middleware resolved once per kind of request; the queue on an SQS endpoint in this process. The
 * recorder is added before their first request, as the cache requires.
 */
const lambdaClients = async (service: LocalService) => {
  const store = new TableStore(
    createDynamoDbClient({ endpoint: service.dynamoEndpoint, cacheMiddleware: true }),
    service.dependencies.store.tableName,
  );
  const sqs = await startSqsEndpoint();
  return {
    aws: { store, resetQueue: new SqsResetQueue(sqs.client, sqs.queueUrl) },
    clients: { DynamoDBClient: store.client, SQSClient: sqs.client },
    recorder: recordRequests(store.client, sqs.client),
    stop: sqs.stop,
  };
};

const timed = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

interface Measuring {
  service: LocalService;
  lambda: ReturnType<typeof lambdaInvocations>;
  clients: Awaited<ReturnType<typeof lambdaClients>>['clients'];
  recorder: ReturnType<typeof recordRequests>;
}

/** One operation's three columns, taking turns call for call through every order of the three. */
const measureOperation = async (
  { service, lambda, clients, recorder }: Measuring,
  operation: BenchOperation,
  iterations: number,
): Promise<Overhead> => {
  const handler = timings();
  const stack: number[] = [];
  const raw = timings();
  let latest: RecordedCommand[] = [];
  const viaHandler = async (i: number) => {
    await operation.restore?.(service);
    const invocation = lambda.prepare(operation.request(undefined, i), `bench-${i}`);
    let functionsMs = 0;
    const sent = await recorder.during(async () => {
      const invoked = await lambda.invoke(invocation);
      if (invoked.result.statusCode !== 200) throw new Error(`${operation.name} answered ${invoked.result.statusCode}`);
      functionsMs = invoked.functionsMs;
    });
    handler.total.push(functionsMs);
    handler.inRequests.push(timeInRequests(sent));
    latest = sent;
  };
  const viaStack = async (i: number) => {
    await operation.restore?.(service);
    // another value than the handler's call, so that this one changes the record too
    const request = operation.request(undefined, i + 25);
    stack.push(
      await timed(async () => {
        const response = await send(service, request);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${operation.name} answered ${response.status}`);
      }),
    );
  };
  const viaRaw = async () => {
    await operation.restore?.(service);
    const replay = replayOf(latest);
    let time = 0;
    const sent = await recorder.during(async () => {
      time = await timed(() => sendReplay(clients, replay, operation));
    });
    raw.total.push(time);
    raw.inRequests.push(timeInRequests(sent));
  };
  // what a restore takes its snapshot of
  await operation.prepare?.(service);
  await viaHandler(-1);
  handler.total.length = 0;
  handler.inRequests.length = 0;
  const orders = [
    [viaHandler, viaStack, viaRaw],
    [viaHandler, viaRaw, viaStack],
    [viaStack, viaHandler, viaRaw],
    [viaStack, viaRaw, viaHandler],
    [viaRaw, viaHandler, viaStack],
    [viaRaw, viaStack, viaHandler],
  ];
  for (let i = 0; i < iterations; i++) for (const measure of orders[i % orders.length]!) await measure(i);
  return overheadRow(operation.name, { handler, stack, raw });
};

/**
 * p50 and p99 of each operation as Lambda runs it (the authorizer, then the family's handler, in process) and
 * through the whole local stack (HTTP, the emulated API Gateway, the same functions), against the raw SDK calls
 * the same operation makes, on the same data. The three take turns call for call, the rounds going through every
 * order of the three, so that none always runs just after the same other; the raw calls replay the latest handler
 * call's requests on the same client. The stack goes through the local server: its HTTP and the emulated API
 * Gateway, with clients that sign their requests and resolve the SDK's middleware once, as the functions' do.
 */
export const measureOverhead = async (service: LocalService, iterations: number): Promise<Overhead[]> => {
  const { aws, clients, recorder, stop } = await lambdaClients(service);
  const measuring: Measuring = { service, lambda: lambdaInvocations(service, aws), clients, recorder };
  try {
    const results: Overhead[] = [];
    for (const operation of BENCH_OPERATIONS.filter((candidate) => MEASURED.includes(candidate.name)))
      results.push(await measureOperation(measuring, operation, iterations));
    return results;
  } finally {
    await stop();
  }
};
