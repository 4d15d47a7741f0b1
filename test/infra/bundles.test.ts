import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { FUNCTION_BUNDLE_OPTIONS, FUNCTION_ENTRIES, type FunctionName } from '../../infra/cdk/bundling';

/** The source files each function's bundle holds code of, built as the stack deploys it. */
const bundledFiles = async (entry: string): Promise<string[]> => {
  const result = await build({
    ...FUNCTION_BUNDLE_OPTIONS,
    entryPoints: [entry],
    write: false,
    metafile: true,
    outfile: 'bundle.mjs',
  });
  const [output] = Object.values(result.metafile.outputs);
  return Object.entries(output!.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file);
};

/** The SDK clients each function calls: a bundle holds these and no other. */
const SDK_CLIENTS: Record<FunctionName, string[]> = {
  authorizer: ['dynamodb'],
  auth: ['dynamodb', 'sesv2'],
  'demand-limits': ['dynamodb', 'sqs'],
  'supply-limits': ['dynamodb', 'sqs'],
  'per-action': ['dynamodb'],
  'delivery-recorder': ['dynamodb', 'sqs'],
  'reset-flush': ['dynamodb', 'sqs'],
  'history-events': ['eventbridge'],
};

const API_FAMILIES: FunctionName[] = ['auth', 'demand-limits', 'supply-limits', 'per-action'];

describe('the Lambda bundles', () => {
  const bundles = new Map<FunctionName, string[]>();
  beforeAll(async () => {
    for (const [name, entry] of Object.entries(FUNCTION_ENTRIES) as [FunctionName, string][])
      bundles.set(name, await bundledFiles(entry));
  });

  it('leave out what only the local server, the docs and the tests use', () => {
    for (const [name, files] of bundles)
      for (const unused of [
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
