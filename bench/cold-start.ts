import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FUNCTION_BUNDLE_OPTIONS, FUNCTION_ENTRIES, type FunctionName } from '../infra/cdk/bundling';
import type { LocalService } from '../infra/local/local-service';
import { prepareInvocation } from './lambda-invocation';
import { ratiosToMinimal } from './cold-start-ratios';
import { median } from './percentile';

export interface ColdStart {
  bundle: string;
  bytes: number;
  /** Median, from process start to the module loaded. */
  loadMs: number;
  /** Median, from process start to the first answer; undefined where the first call needs AWS (SQS). */
  firstResponseMs?: number;
  /** Median, the same call made again at once in the same process: the call's own work, warm. */
  warmCallMs?: number;
  /** Median over the rounds of the first response over the minimal bundle's in the same round. */
  firstResponseRatio?: number;
  /**
   * Median over the rounds of the cold start, the first response less the same call made warm, over the minimal
   * bundle's in the same round: what being first costs, without the call's own requests (budgeted).
   */
  ratioToMinimal?: number;
}

/** Rounds of fresh processes, every bundle once a round. */
export const COLD_START_RUNS = 31;
const run = promisify(execFile);

const MINIMAL = `import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
export const handler = async () => client.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: { PK: { S: 'CAMPAIGN#100' }, SK: { S: 'ENTITY' } } }));`;

/** Loads the bundle, then serves the event twice; `__NOW__` in an event is the time of the call (ms), so that each message is new. */
const RUNNER = `const eventFile = process.argv[3];
const { readFileSync } = await import('node:fs');
const template = eventFile === '-' ? undefined : readFileSync(eventFile, 'utf8');
const eventAt = (now) => JSON.parse(template.replaceAll('__NOW__', String(now)));
const context = { getRemainingTimeInMillis: () => 29000 };
const { handler } = await import(process.argv[2]);
const loaded = performance.now();
let served, warm;
if (template !== undefined) {
  await handler(eventAt(Date.now()), context);
  served = performance.now();
  await handler(eventAt(Date.now() + 1), context);
  warm = performance.now() - served;
}
process.stdout.write(JSON.stringify({ loaded, served, warm }));`;

const apiEvent = (method: string, path: string, principal = true) => {
  const { event } = prepareInvocation({ method, path, headers: {} }, 'cold-start');
  if (principal)
    event.requestContext.authorizer = {
      authenticated: 'true',
      userId: '1',
      username: 'demo',
      role: 'NETWORK',
      method: 'apiKey',
      principalId: '1',
    };
  return event;
};

/** A first request each function can serve with nothing but DynamoDB; reset-flush's first call needs SQS, history-events' an empty batch. */
const FIRST_EVENTS: Record<FunctionName | 'minimal', unknown> = {
  minimal: {},
  authorizer: {
    type: 'REQUEST',
    methodArn: 'arn:aws:execute-api:us-east-1:0:api/dev/GET/x',
    headers: { 'x-api-key': 'demo-key-0001' },
    queryStringParameters: null,
  },
  auth: apiEvent('GET', `/rest-api/auth/${'0'.repeat(32)}/login.do`, false),
  'demand-limits': apiEvent('GET', '/rest-api/campaign/100/limits.do'),
  'supply-limits': apiEvent('GET', '/rest-api/site/20/limits.do'),
  'per-action': apiEvent('GET', '/rest-api/per-action/limits/CAMPAIGN/100.do'),
  webhooks: apiEvent('GET', '/rest-api/webhooks.do'),
  // a FIFO message, as the queue delivers it, new on every call: it counts, on three counter items
  'delivery-recorder': {
    Records: [
      {
        messageId: 'cold-start-__NOW__',
        body: JSON.stringify({ kind: 'impression', bannerId: 1000 }),
        attributes: { MessageGroupId: 'cold-start', SequenceNumber: '__NOW__0000000', SentTimestamp: '__NOW__' },
      },
    ],
  },
  'reset-flush': undefined,
  'history-events': { Records: [] },
  'webhook-dispatcher': { Records: [] },
};

/**
 * What the stack sets besides the table, so that each bundle passes its environment schema at load as deployed; no
 * first request sends to these queues, the bus or SES.
 */
const DEPLOYED_VARIABLES = {
  METRICS_NAMESPACE: 'DeliveryLimits/bench',
  STAGE: 'bench',
  RESET_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-resets',
  DELIVERY_DLQ_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-deliveries-dlq.fifo',
  HISTORY_DLQ_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-history-dlq',
  WEBHOOK_DELIVERIES_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-webhook-deliveries',
  WEBHOOK_SLOW_LANE_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-webhook-slow-lane',
  WEBHOOK_DELIVERIES_DLQ_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-webhook-deliveries-dlq',
  EVENT_BUS_NAME: 'bench-bus',
  MAIL_FROM: 'no-reply@bench.invalid',
  APP_BASE_URL: 'https://bench.invalid',
  DEFAULT_USAGE_KEY: 'bench-default-key',
  ANONYMOUS_USAGE_KEY: 'bench-anonymous-key',
};

/** Each function bundle (built as deployed) loaded by a fresh Node process that serves its first request. */
export const measureColdStarts = async (service: LocalService): Promise<ColdStart[]> => {
  const directory = mkdtempSync(join(tmpdir(), 'cold-start-'));
  const runner = join(directory, 'runner.mjs');
  writeFileSync(runner, RUNNER);
  writeFileSync(join(directory, 'minimal.ts'), MINIMAL);
  const entries: [string, string][] = [['minimal', join(directory, 'minimal.ts')], ...Object.entries(FUNCTION_ENTRIES)];
  const env = {
    ...process.env,
    TABLE_NAME: service.dependencies.store.tableName,
    DYNAMODB_ENDPOINT: service.dynamoEndpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    LOG_LEVEL: 'silent',
    ...DEPLOYED_VARIABLES,
  };
  const bundles = [];
  for (const [name, entry] of entries) {
    const outfile = join(directory, `${name}.mjs`);
    await build({
      entryPoints: [entry],
      outfile,
      ...FUNCTION_BUNDLE_OPTIONS,
      nodePaths: [join(process.cwd(), 'node_modules')],
    });
    const event = FIRST_EVENTS[name as FunctionName | 'minimal'];
    const eventFile = event === undefined ? '-' : join(directory, `${name}.event.json`);
    if (event !== undefined) writeFileSync(eventFile, JSON.stringify(event));
    bundles.push({ name, outfile, eventFile, loads: [] as number[], firsts: [] as number[], warms: [] as number[] });
  }
  // round by round, every bundle once and each round starting one bundle later, so that neither what slows the
  // machine for a while nor a place in the round favours one bundle
  for (let i = 0; i < COLD_START_RUNS; i++)
    for (const bundle of [...bundles.slice(i % bundles.length), ...bundles.slice(0, i % bundles.length)]) {
      const { stdout } = await run(process.execPath, [runner, bundle.outfile, bundle.eventFile], { env });
      const timing = JSON.parse(stdout) as { loaded: number; served?: number; warm?: number };
      bundle.loads.push(timing.loaded);
      if (timing.served !== undefined) bundle.firsts.push(timing.served);
      if (timing.warm !== undefined) bundle.warms.push(timing.warm);
    }
  const minimal = bundles.find((bundle) => bundle.name === 'minimal')!;
  return bundles.map(({ name, outfile, loads, firsts, warms }) => ({
    bundle: name,
    bytes: statSync(outfile).size,
    loadMs: Math.round(median(loads)),
    ...(firsts.length
      ? {
          firstResponseMs: Math.round(median(firsts)),
          ...ratiosToMinimal({ firsts, warms }, minimal),
        }
      : {}),
    ...(warms.length ? { warmCallMs: Math.round(median(warms) * 10) / 10 } : {}),
  }));
};
