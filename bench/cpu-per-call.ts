import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parseWholeNumber, readArguments } from '../scripts/command-line';
import type { BatchGetItemCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { LocalService } from '../infra/local/local-service';
import type { Family } from '../shared/api/route-table';
import type { PreparedInvocation } from './lambda-invocation';
import type { BenchOperation } from './operations';
import type { RequestHandler } from './replaying-handler';
import type { RecordedCommand } from './request-recorder';
import { median } from './percentile';

const USAGE = `Usage: npm run bench:cpu [-- --calls N] [-- --wait-ms W] [-- --profile PREFIX]
  The processor time the functions add to each operation's AWS requests, in this process: DynamoDB answers from
  answers recorded on DynamoDB Local, so that neither the engine nor the machine's other work is timed. Median
  microseconds of CPU per call (the process's, its GC and compiler threads included), the handler's and the same
  requests sent raw, taking turns, and their ratio (exit 1 when over bench/budgets.json's handlerCpuRatioP50);
  then the handler's parts: the authorizer, the family's function, and the
  family's pipeline alone (its operation answering at once). --wait-ms gives each answer after W idle
  milliseconds (0 by default), as an engine's answer comes after a wait. --profile writes a CPU profile of each
  operation's calls to PREFIX-<n>.cpuprofile. How to read it: bench/README.md.`;
const { values } = readArguments(USAGE, {
  calls: { type: 'string' },
  'wait-ms': { type: 'string' },
  profile: { type: 'string' },
});
const CALLS = parseWholeNumber('calls', values.calls ?? '1000', 1);
const WAIT_MS = parseWholeNumber('wait-ms', values['wait-ms'] ?? '0', 0);

// loaded once the arguments are read: --help and a mistyped option answer without loading the tool's work
const dynamodb = await import('@aws-sdk/client-dynamodb');
const { startLocalService } = await import('../infra/local/local-service');
const { TableStore } = await import('../shared/adapters/dynamodb/table-store');
const { SDK_LOGGER } = await import('../shared/adapters/sdk-client-options');
const { FAMILIES, ROUTES } = await import('../shared/api/route-table');
const { jsonResponse } = await import('../shared/http/response');
const { createFamilyHandler } = await import('../shared/pipeline/family-handler');
const { lambdaInvocations } = await import('./lambda-invocation');
const { BENCH_OPERATIONS } = await import('./operations');
const { ReplayingHandler } = await import('./replaying-handler');
const { recordRequests } = await import('./request-recorder');
const { cpuOverBudget } = await import('./over-budget');
const budgets = JSON.parse(readFileSync(new URL('./budgets.json', import.meta.url), 'utf8'));

const WARM_UP_CALLS = 200;
const MEASURED = [
  'limit read',
  'set.do (existing record)',
  'update.do',
  'DELETE limits.do',
  'per-action add (existing)',
];

const cpuOf = async (work: () => Promise<unknown>): Promise<number> => {
  const before = process.cpuUsage();
  await work();
  const { user, system } = process.cpuUsage(before);
  return user + system;
};

const COMMANDS = dynamodb as unknown as Record<string, new (input: unknown) => BatchGetItemCommand>;

interface Measuring {
  service: LocalService;
  /** Each family's pipeline with every operation answering at once: what a request costs besides its operation. */
  pipelines: Record<Family, ReturnType<typeof createFamilyHandler>>;
  replaying: InstanceType<typeof ReplayingHandler>;
  client: DynamoDBClient;
  lambda: ReturnType<typeof lambdaInvocations>;
  recorder: ReturnType<typeof recordRequests>;
}

/**
 * One call through the functions, its answer checked: the processor time of the authorizer's and the family's
 * invocations, as measure 2 times them (API Gateway's part, routing and building the events, is not counted).
 */
const invoke = async ({ lambda }: Measuring, operation: BenchOperation, call: number) => {
  const prepared = lambda.prepare(operation.request(undefined, call), `cpu-${call}`);
  const { result, cpuUs } = await lambda.invoke(prepared);
  if (result.statusCode !== 200) throw new Error(`${operation.name} answered ${result.statusCode}: ${result.body}`);
  return { ...cpuUs, prepared };
};

/** The same request, with the principal the authorizer gave, through the family's pipeline alone. */
const pipelineCpu = async (
  { lambda, pipelines }: Measuring,
  operation: BenchOperation,
  authorized: PreparedInvocation,
) => {
  const { route, event, context } = lambda.prepare(operation.request(undefined, 0), 'cpu-pipeline');
  event.requestContext.authorizer = authorized.event.requestContext.authorizer;
  return cpuOf(async () => {
    const { statusCode } = await pipelines[route.family](event, context);
    if (statusCode !== 200) throw new Error(`${operation.name}'s pipeline answered ${statusCode}`);
  });
};

const immediateAnswers = Object.fromEntries(
  ROUTES.map((route) => [route.operation, async () => jsonResponse(200, { success: true })]),
);

/** A warm call recorded on DynamoDB Local: the requests it sends, and the answers the replay gives. */
const recordWarmCall = async (measuring: Measuring, operation: BenchOperation): Promise<RecordedCommand[]> => {
  const { service, replaying, recorder } = measuring;
  // the clock stands still, so that no warm cache expires while the answers are replayed
  service.clock.set(new Date());
  replaying.record();
  // the local server may have closed fetch's idle connection while the previous operation was measured: once more
  await operation.prepare?.(service).catch(() => operation.prepare?.(service));
  await operation.restore?.(service);
  await invoke(measuring, operation, 0);
  await operation.restore?.(service);
  replaying.record();
  const sent = await recorder.during(() => invoke(measuring, operation, 1));
  replaying.replay();
  return sent;
};

const measureOperation = async (measuring: Measuring, operation: BenchOperation, session: Session) => {
  const sent = await recordWarmCall(measuring, operation);
  const times = { handler: [] as number[], raw: [] as number[], authorizer: [] as number[] };
  const parts = { family: [] as number[], pipeline: [] as number[] };
  const round = async (call: number) => {
    const functions = await invoke(measuring, operation, call);
    times.handler.push(functions.authorizer + functions.family);
    times.authorizer.push(functions.authorizer);
    parts.family.push(functions.family);
    parts.pipeline.push(await pipelineCpu(measuring, operation, functions.prepared));
    const commands = sent.map(({ commandName, input }) => new COMMANDS[commandName]!(structuredClone(input)));
    times.raw.push(
      await cpuOf(async () => {
        for (const command of commands) await measuring.client.send(command);
      }),
    );
  };
  for (let call = 0; call < WARM_UP_CALLS; call++) await round(call);
  for (const each of [...Object.values(times), ...Object.values(parts)]) each.length = 0;
  if (values.profile) await session.post('Profiler.start');
  for (let call = 0; call < CALLS; call++) await round(call);
  if (values.profile) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(`${values.profile}-${MEASURED.indexOf(operation.name)}.cpuprofile`, JSON.stringify(profile));
  }
  const [functions, replay] = [median(times.handler), median(times.raw)];
  return {
    operation: operation.name,
    requests: sent.length,
    'handler µs': functions,
    'raw µs': replay,
    'added µs': functions - replay,
    cpuRatioP50: Math.round((functions / replay) * 100) / 100,
    'authorizer µs': median(times.authorizer),
    'family µs': median(parts.family),
    'pipeline µs': median(parts.pipeline),
  };
};

const service = await startLocalService({ port: 0 });
const replaying = new ReplayingHandler(
  service.dependencies.store.client.config.requestHandler as RequestHandler,
  WAIT_MS,
);
const session = new Session();
session.connect();
await session.post('Profiler.enable');
try {
  const client = new dynamodb.DynamoDBClient({
    endpoint: service.dynamoEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    logger: SDK_LOGGER,
    cacheMiddleware: true,
    requestHandler: replaying,
  });
  const recorder = recordRequests(client);
  const store = new TableStore(client, service.dependencies.store.tableName);
  const lambda = lambdaInvocations(service, { store, resetQueue: service.dependencies.resetQueue });
  const pipelines = Object.fromEntries(
    FAMILIES.map((family) => [family, createFamilyHandler(family, immediateAnswers, { store, clock: service.clock })]),
  ) as unknown as Measuring['pipelines'];
  const measuring: Measuring = { service, pipelines, replaying, client, lambda, recorder };
  const rows = [];
  for (const operation of BENCH_OPERATIONS.filter(({ name }) => MEASURED.includes(name)))
    rows.push(await measureOperation(measuring, operation, session));
  console.log(`CPU per call, median of ${CALLS} calls each, taking turns with the raw requests (µs)`);
  console.table(rows);
  const failures = cpuOverBudget(budgets, rows);
  if (failures.length > 0) {
    console.error(`Over budget:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  }
} finally {
  session.disconnect();
  await service.stop();
}
