import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { readArguments } from './command-line';
import { FUNCTION_BUNDLE_OPTIONS, FUNCTION_ENTRIES, type FunctionName } from '../infra/cdk/bundling';

/** Bundles every function as the stack does, and once more with the AWS SDK left to the runtime, and reports both. */
const bundle = async (entry: string, sdkExternal: boolean): Promise<Uint8Array> => {
  const result = await build({
    entryPoints: [entry],
    ...FUNCTION_BUNDLE_OPTIONS,
    write: false,
    external: [...(FUNCTION_BUNDLE_OPTIONS.external ?? []), ...(sdkExternal ? ['@aws-sdk/*', '@smithy/*'] : [])],
  });
  return result.outputFiles[0]!.contents;
};

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export const bundleReport = async () =>
  Promise.all(
    (Object.entries(FUNCTION_ENTRIES) as [FunctionName, string][]).map(async ([name, entry]) => {
      const [bundled, external] = await Promise.all([bundle(entry, false), bundle(entry, true)]);
      return {
        function: name,
        bundledBytes: bundled.length,
        bundledGzipBytes: gzipSync(bundled).length,
        sdkFromRuntimeBytes: external.length,
      };
    }),
  );

const USAGE = `Usage: npm run bundle:report
  Bundles every function as the stack deploys it and prints each bundle's size, minified and gzipped, and its
  size with the AWS SDK left to the Lambda runtime.`;

if (process.argv[1]?.endsWith('bundle-report.ts')) {
  readArguments(USAGE, {});
  const rows = await bundleReport();
  console.log('\nFunction bundles (minified ESM, as deployed; the SDK bundled)\n');
  console.table(
    rows.map((row) => ({
      function: row.function,
      deployed: kb(row.bundledBytes),
      gzip: kb(row.bundledGzipBytes),
      'SDK from runtime instead': kb(row.sdkFromRuntimeBytes),
    })),
  );
}
