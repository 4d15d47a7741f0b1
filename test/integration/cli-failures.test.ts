import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runToolInProcess, spawnTool, type ToolRun } from '../support/tool-run';

const scratch = mkdtempSync(join(tmpdir(), 'cli-'));
const brokenJson = join(scratch, 'broken.json');
writeFileSync(brokenJson, '{\n  "users": [\n    {"id": 1,}\n  ]\n}\n');
const truncatedJson = join(scratch, 'truncated.json');
writeFileSync(truncatedJson, '{\n  "users": [\n    {"id": 1, "username": ');

/** An environment with no AWS credentials anywhere, and no instance metadata to wait for. */
const noCredentials: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: scratch,
  AWS_REGION: 'us-east-1',
  AWS_EC2_METADATA_DISABLED: 'true',
  LOG_LEVEL: 'silent',
};

/** A tool run in this worker (`test/support/tool-run.ts`); the wiring to a real process is proven once per tool below. */
const invoke = (script: string, args: string[], env: NodeJS.ProcessEnv = noCredentials) =>
  runToolInProcess(script, args, env);

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** A failure as a person should see it: exit 1 and one line on stderr that says what to do, no stack trace. */
const expectOneLine = (result: { code: number; stderr: string }, pattern: RegExp) => {
  expect(result.code, result.stderr).toBe(1);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at /);
};

const API_KEY = 'scripts/api-key.ts';
const CATALOG = 'infra/local/catalog-cli.ts';
const START = 'infra/local/main.ts';
const REDRIVE = 'scripts/redrive.ts';
const SHARDS = 'scripts/shards.ts';
const WEBHOOKS = 'scripts/webhooks.ts';
const BUILD_DOCS = 'scripts/build-docs.ts';
const CAPACITY = 'scripts/simulate/capacity.ts';
const CPU_PER_CALL = 'bench/cpu-per-call.ts';
const FUZZ = 'test/fuzz/counter-model-fuzz.ts';
/** The tools that take no option but --help: each would start heavy work on anything else. */
const OPTIONLESS_TOOLS = [
  'bench/run.ts',
  'scripts/simulate/main.ts',
  'scripts/openapi-lint.ts',
  'scripts/bundle-report.ts',
  'scripts/error-code-table.ts',
];

describe('the command-line tools', () => {
  it('run as processes: an unknown option exits 1 with one line on stderr, from every tool', async () => {
    const tools = [
      API_KEY,
      CATALOG,
      START,
      REDRIVE,
      WEBHOOKS,
      SHARDS,
      ...OPTIONLESS_TOOLS,
      BUILD_DOCS,
      CAPACITY,
      CPU_PER_CALL,
    ];
    // two at a time: each spends a second or two starting up, part of it waiting on the disk
    const runs: { script: string; result: ToolRun }[] = [];
    for (let next = 0; next < tools.length; next += 2)
      runs.push(
        ...(await Promise.all(
          tools
            .slice(next, next + 2)
            .map(async (script) => ({ script, result: await spawnTool(script, ['--bogus'], noCredentials) })),
        )),
      );
    for (const { script, result } of runs) {
      expectOneLine(result, /^Unknown option --bogus: npm (run )?[\w:-]+ takes .*--help\.$/);
      expect(result.stdout, script).toBe('');
    }
  }, 300_000);

  it('answer --help with their usage and exit 0', async () => {
    for (const script of [
      API_KEY,
      CATALOG,
      START,
      REDRIVE,
      WEBHOOKS,
      SHARDS,
      ...OPTIONLESS_TOOLS,
      BUILD_DOCS,
      CPU_PER_CALL,
    ]) {
      const result = await invoke(script, ['--help']);
      expect(result.code, script).toBe(0);
      expect(result.stdout, script).toMatch(/^Usage: npm/);
    }
    // the tools that need AWS name what does their work on the local server
    for (const [script, local] of [
      [API_KEY, /apiKeys of its catalog entry, loaded with\s+npm run catalog:import -- FILE or POST \/_local\/catalog/],
      [REDRIVE, /Locally \(npm start\): POST \/_local\/redrive/],
      [SHARDS, /Locally \(npm start\): POST \/_local\/shards/],
    ] as const)
      expect((await invoke(script, ['--help'])).stdout, script).toMatch(local);
  }, 120_000);

  it('refuse an unknown option before doing any work', async () => {
    for (const script of OPTIONLESS_TOOLS) {
      const startedAt = Date.now();
      const result = await invoke(script, ['--seconds', '5']);
      expectOneLine(result, /^Unknown option --seconds: npm run [\w:-]+ takes --help\.$/);
      expect(Date.now() - startedAt, script).toBeLessThan(15_000);
    }
  }, 90_000);

  it('npm run capacity answers --help and refuses an unknown option in one line', async () => {
    const help = await invoke(CAPACITY, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run capacity/);
    expectOneLine(
      await invoke(CAPACITY, ['--seconds', '5']),
      /^Unknown option --seconds: npm run capacity takes -c key=value, --json, --help\.$/,
    );
  }, 60_000);

  it('npm run capacity -- --json prints the push path at 1×, 10× and 100× of the load the settings give', async () => {
    const printed = await invoke(CAPACITY, ['--json', '-c', 'deliveryEventsPerSecond=200000']);
    expect(printed.code, printed.stderr).toBe(0);
    const { loads } = JSON.parse(printed.stdout) as {
      loads: {
        factor: number;
        streamShards: number;
        streamConsumer: { concurrencyNeeded: number; concurrencyAvailable: number };
        webhooks: { deliveriesPerSecond: number; hottestPartitionWriteUnits: number };
      }[];
    };
    expect(loads.map((load) => load.factor)).toEqual([1, 10, 100]);
    // the documented 1× load's table: 113,200 write units a second, a stream shard per 1,000
    expect(loads[0]!.streamShards).toBe(114);
    for (const { streamConsumer, webhooks } of loads.slice(0, 2)) {
      expect(streamConsumer.concurrencyAvailable).toBeGreaterThanOrEqual(streamConsumer.concurrencyNeeded);
      expect(webhooks.hottestPartitionWriteUnits).toBeLessThanOrEqual(500);
    }
  }, 60_000);

  it('npm run capacity refuses a setting the stack does not read, in the line synth stops with', async () => {
    const refusal =
      /^-c bogusKey=1: the stack reads no such setting with these settings; check the name against docs\/operations\.md, "Context settings"$/;
    expectOneLine(await invoke(CAPACITY, ['-c', 'bogusKey=1']), refusal);
    // cdk synth runs the app with the context in CDK_CONTEXT_JSON
    expectOneLine(
      await invoke('infra/cdk/app.ts', [], { ...noCredentials, CDK_CONTEXT_JSON: JSON.stringify({ bogusKey: '1' }) }),
      refusal,
    );
    const accepted = await invoke(CAPACITY, ['-c', 'apiRequestsPerSecond=1500']);
    expect(accepted.code, accepted.stderr).toBe(0);
  }, 60_000);

  it('npm run bench:cpu and npm run fuzz refuse a count that is not a whole number, in one line', async () => {
    expectOneLine(await invoke(CPU_PER_CALL, ['--calls', '0']), /^Invalid --calls "0": give a whole number from 1\.$/);
    expectOneLine(
      await invoke(CPU_PER_CALL, ['--wait-ms', '2.5']),
      /^Invalid --wait-ms "2\.5": give a whole number from 0\.$/,
    );
    expectOneLine(await invoke(FUZZ, ['--runs', 'many']), /^Invalid --runs "many": give a whole number from 1\.$/);
    expectOneLine(await invoke(FUZZ, ['--workers', '0']), /^Invalid --workers "0": give a whole number from 1\.$/);
    expectOneLine(await invoke(FUZZ, ['--seed', '1e3']), /^Invalid --seed "1e3": give a whole number\.$/);
  });

  it('npm run api-key fails in one line', async () => {
    expectOneLine(
      await invoke(API_KEY, ['--bogus']),
      /^Unknown option --bogus: npm run api-key takes --user, --plan, --key-id, --help\.$/,
    );
    expectOneLine(await invoke(API_KEY, []), /create, rotate or revoke/);
    expectOneLine(await invoke(API_KEY, ['revoke']), /--key-id ID/);
    expectOneLine(await invoke(API_KEY, ['rotate', '--key-id', 'k1']), /usage plan/);
    expectOneLine(
      await invoke(API_KEY, ['revoke', '--key-id', 'k1']),
      /Set TABLE_NAME .*locally, a user's keys are its catalog entry's apiKeys/,
    );
    expectOneLine(await invoke(API_KEY, ['create']), /--user NAME/);
    expectOneLine(await invoke(API_KEY, ['create', '--user', 'demo']), /usage plan/);
    expectOneLine(
      await invoke(API_KEY, ['create', '--user', 'demo', '--plan', 'p1'], { ...noCredentials, TABLE_NAME: 't' }),
      /No AWS credentials were found: set AWS_PROFILE/,
    );
  }, 60_000);

  it('npm run shards fails in one line', async () => {
    expectOneLine(
      await invoke(SHARDS, ['--shards', '4']),
      /^Unknown option --shards: npm run shards takes --type, --id, --count, --help\.$/,
    );
    expectOneLine(
      await invoke(SHARDS, ['--type', 'user', '--id', '0', '--count', '1']),
      /^--type must be one of advertiser, .*; --id must be a positive whole number; --count must be a whole number from 2 to 96\.$/,
    );
    expectOneLine(
      await invoke(SHARDS, ['--type', 'advertiser', '--id', '1', '--count', '16']),
      /Set TABLE_NAME .*locally, POST \/_local\/shards/,
    );
    expectOneLine(
      await invoke(SHARDS, ['--type', 'advertiser', '--id', '1', '--count', '16'], {
        ...noCredentials,
        TABLE_NAME: 't',
      }),
      /No AWS credentials were found: set AWS_PROFILE/,
    );
  }, 60_000);

  it('npm run redrive fails in one line', async () => {
    const queueUrl = 'https://sqs.eu-west-1.amazonaws.com/123456789012/delivery-dlq.fifo';
    expectOneLine(
      await invoke(REDRIVE, ['--queue']),
      /^Unknown option --queue: npm run redrive takes --queue-url, --dry-run, --help\.$/,
    );
    expectOneLine(await invoke(REDRIVE, []), /^Name the queue: --queue-url URL/);
    expectOneLine(await invoke(REDRIVE, ['--queue-url', 'dlq']), /--queue-url must be an SQS queue URL/);
    expectOneLine(await invoke(REDRIVE, ['--queue-url', queueUrl]), /Set TABLE_NAME .*locally, POST \/_local\/redrive/);
    expectOneLine(
      await invoke(REDRIVE, ['--queue-url', queueUrl], { ...noCredentials, TABLE_NAME: 't' }),
      /No AWS credentials were found: set AWS_PROFILE/,
    );
  }, 60_000);

  it('npm run webhooks fails in one line', async () => {
    const dlq = 'https://sqs.eu-west-1.amazonaws.com/123456789012/webhook-dlq';
    const queue = 'https://sqs.eu-west-1.amazonaws.com/123456789012/webhook-deliveries';
    expectOneLine(await invoke(WEBHOOKS, []), /^Name the command: npm run webhooks -- replay/);
    expectOneLine(await invoke(WEBHOOKS, ['redo']), /^Name the command: npm run webhooks -- replay/);
    expectOneLine(
      await invoke(WEBHOOKS, ['replay', '--dlq-url', dlq]),
      /^Name both queues: --dlq-url URL --queue-url URL/,
    );
    expectOneLine(
      await invoke(WEBHOOKS, ['replay', '--dlq-url', 'dlq', '--queue-url', queue]),
      /--dlq-url must be an SQS queue URL/,
    );
    expectOneLine(await invoke(WEBHOOKS, ['replay', '--local', 'localhost']), /--local must be the local server's URL/);
    expectOneLine(
      await invoke(WEBHOOKS, ['replay', '--local', `http://127.0.0.1:${await freePort()}`]),
      /^No local server answers at http:\/\/127\.0\.0\.1:\d+: start it with npm start/,
    );
    expectOneLine(
      await invoke(WEBHOOKS, ['replay', '--dlq-url', dlq, '--queue-url', queue]),
      /No AWS credentials were found: set AWS_PROFILE/,
    );
  }, 60_000);

  it('npm run catalog:import fails in one line', async () => {
    expectOneLine(await invoke(CATALOG, []), /Give one catalog file/);
    expectOneLine(await invoke(CATALOG, [join(scratch, 'missing.json')]), /missing\.json does not exist/);
    expectOneLine(await invoke(CATALOG, [brokenJson]), /broken\.json is not valid JSON at line 3, column \d+/);
    expectOneLine(
      await invoke(CATALOG, [truncatedJson]),
      /truncated\.json is not valid JSON \(it ends too early, at line 3, column 27\)/,
    );
    expectOneLine(
      await invoke(CATALOG, ['--bogus', 'x.json']),
      /^Unknown option --bogus: npm run catalog:import takes --port, --url, --help\.$/,
    );
    expectOneLine(await invoke(CATALOG, ['x.json', '--port', '1', '--url', 'http://x']), /--port N or --url URL/);
    expectOneLine(await invoke(CATALOG, ['x.json', '--port', 'http']), /Invalid port "http"/);
    const port = await freePort();
    expectOneLine(
      await invoke(CATALOG, ['infra/local/demo-catalog.json'], { ...noCredentials, PORT: String(port) }),
      new RegExp(`No local server answers at http://127\\.0\\.0\\.1:${port}: start it with npm start`),
    );
    expectOneLine(
      await invoke(CATALOG, ['infra/local/demo-catalog.json', '--port', String(port)]),
      new RegExp(`No local server answers at http://127\\.0\\.0\\.1:${port}:`),
    );
    expectOneLine(
      await invoke(CATALOG, ['infra/local/demo-catalog.json'], { ...noCredentials, TABLE_NAME: 't' }),
      /No AWS credentials were found/,
    );
  }, 60_000);

  it("name the -- npm needs when npm kept one of the tool's options for itself", async () => {
    // as npm hands them over: `npm start --port 4301` sets npm's own port setting and leaves the tool 4301
    const underNpm = (option: string) => ({
      ...noCredentials,
      npm_lifecycle_event: 'start',
      [`npm_config_${option}`]: 'true',
    });
    expectOneLine(
      await invoke(START, ['4301'], underNpm('port')),
      /^npm took --port for itself: put -- before the tool's options \(npm start -- --port 4301\)\.$/,
    );
    expectOneLine(
      await invoke(START, [], underNpm('empty')),
      /^npm took --empty for itself: put -- before the tool's options \(npm start -- --empty\)\.$/,
    );
    expectOneLine(
      await invoke(CATALOG, ['x.json', '3001'], underNpm('port')),
      /^npm took --port for itself: .*\(npm run catalog:import -- --port 3001\)\.$/,
    );
    // and through npm itself, once
    const run = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile('npm', ['start', '--silent', '--port', '4301'], { env: noCredentials }, (error, _stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stderr }),
      ),
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      "npm took --port for itself: put -- before the tool's options (npm start -- --port 4301).",
    );
  }, 60_000);

  it('npm start fails in one line before starting Java', async () => {
    expectOneLine(await invoke(START, ['--empty', '--catalog', 'x.json']), /--catalog FILE or --empty, not both/);
    expectOneLine(await invoke(START, ['--port', 'http']), /Invalid port "http"/);
    expectOneLine(
      await invoke(START, ['--url', 'http://x']),
      /^Unknown option --url: npm start takes --port, --host, --data, --catalog, --empty, --help\.$/,
    );
    expectOneLine(
      await invoke(START, ['--port', '0', '--catalog', join(scratch, 'missing.json')]),
      /missing\.json does not exist/,
    );
    expectOneLine(await invoke(START, ['--port', '0', '--catalog', brokenJson]), /not valid JSON at line 3/);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = String((taken.address() as { port: number }).port);
    const startedAt = Date.now();
    const result = await invoke(START, ['--port', port]);
    taken.close();
    expectOneLine(
      result,
      new RegExp(`^Port ${port} on 127\\.0\\.0\\.1 is already in use: .*: npm start -- --port ${Number(port) + 1}$`),
    );
    expect(result.stdout).not.toContain('DynamoDB Local');
    expect(Date.now() - startedAt).toBeLessThan(8_000);
  }, 60_000);
});
