import { build, version as esbuildVersion } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
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
  return { value: { code: result.outputFiles[0]!.text, files }, inputs: Object.keys(result.metafile.inputs) };
};

/** The bundle as `buildBundle` makes it, taken from the last run when esbuild would read the same files. */
const bundle = (name: string, entry: string): Promise<{ code: string; files: string[] }> =>
  cachedByContent(`bundle-${name}`, [esbuildVersion, FUNCTION_BUNDLE_OPTIONS, entry, fileHash('tsconfig.json')], () =>
    buildBundle(entry),
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

describe('the Lambda bundles', () => {
  const bundles = new Map<FunctionName, string[]>();
  const code = new Map<FunctionName, string>();
  beforeAll(async () => {
    for (const [name, entry] of Object.entries(FUNCTION_ENTRIES) as [FunctionName, string][]) {
      const built = await bundle(name, entry);
      bundles.set(name, built.files);
      code.set(name, built.code);
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
        // the environment is checked by hand (shared/runtime/environment.ts): no schema library is loaded at cold start
        'node_modules/zod/',
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

  it('hold the route table only where a router dispatches on it', () => {
    for (const [name, files] of bundles)
      expect(files.includes('shared/api/route-table.ts'), name).toBe(API_FAMILIES.includes(name));
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
