import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, version as esbuildVersion } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNCTION_BUNDLE_OPTIONS, FUNCTION_ENTRIES, type FunctionName } from '../../infra/cdk/bundling';
import { synthesizedTemplate } from './template';
import { cachedByContent, fileHash } from '../support/content-cache';

/** A function's bundle, built as the stack deploys it: its code, and the source files it holds code of. */
const buildBundle = async (entry: string) => {
  const result = await build({
    ...FUNCTION_BUNDLE_OPTIONS,
    entryPoints: [entry],
    write: false,
    metafile: true,
    outfile: 'bundle.mjs',
  });
  const [output] = Object.values(result.metafile.outputs);
  const files = Object.entries(output!.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file);
  // the project's own files that import zod
  const zodImporters = Object.entries(result.metafile.inputs)
    .filter(([file, input]) => !file.includes('node_modules/') && input.imports.some((i) => ZOD.test(i.path)))
    .map(([file]) => file);
  return {
    value: { code: result.outputFiles[0]!.text, files, zodImporters },
    inputs: Object.keys(result.metafile.inputs),
  };
};

const ZOD = /(^|\/)node_modules\/zod\//;

/** The bundle as `buildBundle` makes it, taken from the last run when esbuild would read the same files. */
const bundle = (name: string, entry: string): Promise<{ code: string; files: string[]; zodImporters: string[] }> =>
  cachedByContent(
    `bundle-${name}`,
    ['zod importers', esbuildVersion, FUNCTION_BUNDLE_OPTIONS, entry, fileHash('tsconfig.json')],
    () => buildBundle(entry),
  );

/** Each function's environment variables as the default stack sets them. */
const deployedEnvironments = (): Map<FunctionName, string[]> => {
  const { ofType } = synthesizedTemplate();
  return new Map(
    (Object.keys(FUNCTION_ENTRIES) as FunctionName[]).map((name) => {
      const [, fn] = ofType('AWS::Lambda::Function').find(([id]) =>
        id.startsWith(`${name.replace(/-/g, '')}Function`),
      )!;
      return [name, Object.keys((fn.Properties.Environment as { Variables: Record<string, string> }).Variables)];
    }),
  );
};

/** The SDK clients each function calls: a bundle holds these and no other. */
const SDK_CLIENTS: Record<FunctionName, string[]> = {
  authorizer: ['dynamodb'],
  auth: ['dynamodb', 'sesv2'],
  'demand-limits': ['dynamodb', 'sqs'],
  'supply-limits': ['dynamodb', 'sqs'],
  'per-action': ['dynamodb'],
  webhooks: ['dynamodb'],
  'delivery-recorder': ['dynamodb', 'sqs'],
  'reset-flush': ['dynamodb', 'sqs'],
  'history-events': ['dynamodb', 'eventbridge', 'sqs'],
  'webhook-dispatcher': ['dynamodb', 'sqs'],
};

const API_FAMILIES: FunctionName[] = ['auth', 'demand-limits', 'supply-limits', 'per-action', 'webhooks'];

/** A value of each variable the stack sets, shaped as deployed, so that every bundle's environment parses at load. */
const LOAD_ENVIRONMENT: Record<string, string> = {
  TABLE_NAME: 'Table',
  METRICS_NAMESPACE: 'DeliveryLimits/bundles',
  STAGE: 'bundles',
  RESET_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/resets',
  DELIVERY_DLQ_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/deliveries-dlq.fifo',
  HISTORY_DLQ_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/history-dlq',
  WEBHOOK_DELIVERIES_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/webhook-deliveries',
  WEBHOOK_SLOW_LANE_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/webhook-slow-lane',
  WEBHOOK_DELIVERIES_DLQ_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/webhook-deliveries-dlq',
  EVENT_BUS_NAME: 'bus',
  MAIL_FROM: 'no-reply@bundles.invalid',
  APP_BASE_URL: 'https://bundles.invalid',
  DEFAULT_USAGE_KEY: 'default-key',
  ANONYMOUS_USAGE_KEY: 'anonymous-key',
};

/** An event each function answers without sending anything to AWS: an empty batch from its queue or stream. */
const OFFLINE_EVENTS: Partial<Record<FunctionName, unknown>> = {
  'history-events': { Records: [] },
  'webhook-dispatcher': { Records: [] },
};

/** Imports a bundle in a fresh Node process (this one's version), and answers the event if one is given. */
const LOADER = `const { handler } = await import(process.argv[2]);
const event = process.argv[3] === undefined ? undefined : JSON.parse(process.argv[3]);
const answer = event === undefined ? undefined : await handler(event, { getRemainingTimeInMillis: () => 29000 });
process.stdout.write(JSON.stringify({ handler: typeof handler, answer }));`;

describe('the Lambda bundles', () => {
  const bundles = new Map<FunctionName, string[]>();
  const code = new Map<FunctionName, string>();
  const zodImporters = new Map<FunctionName, string[]>();
  beforeAll(async () => {
    for (const [name, entry] of Object.entries(FUNCTION_ENTRIES) as [FunctionName, string][]) {
      const built = await bundle(name, entry);
      bundles.set(name, built.files);
      code.set(name, built.code);
      zodImporters.set(name, built.zodImporters);
    }
  }, 300_000);

  it('are deployed with exactly the environment variables their code reads, of those the stack sets', () => {
    const environments = deployedEnvironments();
    // every variable the stack gives any function; a bundle reads one where its name is a property it looks up
    const set = [...new Set([...environments.values()].flat())];
    expect(set.length).toBeGreaterThan(5);
    for (const [name, variables] of environments) {
      const read = set.filter((variable) => new RegExp(`\\b${variable}\\b`).test(code.get(name)!));
      expect([...variables].sort(), name).toEqual(read.sort());
    }
  }, 300_000);

  it('leave out what only the local server, the docs and the tests use', () => {
    for (const [name, files] of bundles)
      for (const unused of [
        // zod's full build (its classic API): the environment is checked with zod/mini
        'node_modules/zod/v4/classic/',
        'shared/api/openapi/',
        'shared/catalog/',
        'infra/',
        '@aws-lambda-powertools/tracer',
        'aws-xray-sdk',
      ])
        expect(
          files.filter((file) => file.includes(unused)),
          `${name} holds ${unused}`,
        ).toEqual([]);
  });

  it("check each function's environment with zod/mini, and nothing else with zod", () => {
    for (const [name, files] of bundles) {
      expect(
        files.some((file) => file.includes('node_modules/zod/v4/mini/')),
        name,
      ).toBe(true);
      expect(zodImporters.get(name), name).toEqual(['shared/runtime/environment.ts']);
    }
  });

  it('read form bodies with @middy/http-urlencode-body-parser where a router dispatches', () => {
    for (const [name, files] of bundles)
      expect(
        files.some((file) => file.includes('node_modules/@middy/http-urlencode-body-parser/')),
        name,
      ).toBe(API_FAMILIES.includes(name));
  });

  it('hold the route table only where a router dispatches on it', () => {
    for (const [name, files] of bundles)
      expect(files.includes('shared/api/route-table.ts'), name).toBe(API_FAMILIES.includes(name));
  });

  describe('on the Node.js of local development', () => {
    const directory = mkdtempSync(join(tmpdir(), 'bundles-'));
    afterAll(() => rmSync(directory, { recursive: true, force: true }));

    it(`load, and answer a batch, on Node ${process.versions.node} though built for Lambda's Node.js 24`, async () => {
      const loader = join(directory, 'loader.mjs');
      writeFileSync(loader, LOADER);
      const env = { ...process.env, ...LOAD_ENVIRONMENT, AWS_REGION: 'us-east-1', LOG_LEVEL: 'silent' };
      for (const [name, source] of code) {
        const file = join(directory, `${name}.mjs`);
        writeFileSync(file, source);
        const event = OFFLINE_EVENTS[name];
        const args = [loader, file, ...(event === undefined ? [] : [JSON.stringify(event)])];
        const { stdout } = await promisify(execFile)(process.execPath, args, { env });
        const loaded = JSON.parse(stdout) as { handler: string; answer?: unknown };
        expect(loaded.handler, name).toBe('function');
        if (event !== undefined) expect(loaded.answer, name).toEqual({ batchItemFailures: [] });
      }
      expect(Object.keys(OFFLINE_EVENTS).length).toBeGreaterThan(0);
    }, 120_000);
  });

  it('are as large as the architecture guide says: within its bounds, which are no wider than 40 KB (15 gzipped) beyond them', () => {
    const stated = /the bundles are (\d+) to (\d+) KB \((\d+) to (\d+) KB\s+gzipped/.exec(
      readFileSync('docs/architecture.md', 'utf8'),
    );
    expect(stated).not.toBeNull();
    const [low, high, gzipLow, gzipHigh] = stated!.slice(1).map(Number) as [number, number, number, number];
    // kilobytes as npm run bundle:report prints them
    const sizes = [...code.values()].map((source) => Buffer.byteLength(source) / 1024);
    const gzipped = [...code.values()].map((source) => gzipSync(source).length / 1024);
    for (const [sizesOf, least, most, slack] of [
      [sizes, low, high, 40],
      [gzipped, gzipLow, gzipHigh, 15],
    ] as const) {
      expect(Math.min(...sizesOf)).toBeGreaterThanOrEqual(least);
      expect(Math.max(...sizesOf)).toBeLessThanOrEqual(most);
      expect(most - least).toBeLessThanOrEqual(Math.max(...sizesOf) - Math.min(...sizesOf) + slack);
    }
  });

  it('hold exactly the SDK clients their function calls', () => {
    for (const [name, files] of bundles) {
      const clients = new Set(
        files.flatMap((file) => /node_modules\/@aws-sdk\/client-([^/]+)\//.exec(file)?.slice(1) ?? []),
      );
      expect([...clients].sort(), name).toEqual(SDK_CLIENTS[name]);
    }
  });
});
