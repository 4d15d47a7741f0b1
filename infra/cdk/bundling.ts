import type { BuildOptions } from 'esbuild';

/**
 * How every function is bundled, shared by the CDK stack and `npm run bundle:report` so that the report measures
 * what is deployed. The AWS SDK is bundled rather than taken from the runtime: the lock file pins it, and
 * tree-shaking plus minification keep the bundles small (the report shows both choices side by side).
 */
export const FUNCTION_ENTRIES = {
  authorizer: 'functions/authorizer/lambda.ts',
  auth: 'functions/auth/lambda.ts',
  'demand-limits': 'functions/demand-limits/lambda.ts',
  'supply-limits': 'functions/supply-limits/lambda.ts',
  'per-action': 'functions/per-action/lambda.ts',
  webhooks: 'functions/webhooks/lambda.ts',
  'delivery-recorder': 'functions/delivery-recorder/lambda.ts',
  'reset-flush': 'functions/reset-flush/lambda.ts',
  'history-events': 'functions/history-events/lambda.ts',
  'webhook-dispatcher': 'functions/webhook-dispatcher/lambda.ts',
} as const;

export type FunctionName = keyof typeof FUNCTION_ENTRIES;

/** The Lambda runtime's Node.js (`LAMBDA_RUNTIME` in `functions.ts`): esbuild leaves its syntax as written. */
export const ESBUILD_TARGET = 'node24';
/** ESM bundles still meet the odd CommonJS `require` inside dependencies. */
export const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/**
 * Powertools Tracer and the X-Ray SDK under it: bundled only into a stack synthesised with tracing on. Without
 * tracing nothing imports them (`shared/observability/tracing.ts` loads them on the first traced invocation), and
 * leaving them out keeps about 125 KB and some 50 ms off every family's cold start (measured with `npm run bench`).
 */
export const TRACING_MODULES = ['@aws-lambda-powertools/tracer', '@aws-lambda-powertools/tracer/*'];

/**
 * The esbuild options of a function bundle, for the tools that bundle outside CDK (bench, bundle report): the
 * default deployment, tracing off.
 */
export const FUNCTION_BUNDLE_OPTIONS: BuildOptions = {
  external: TRACING_MODULES,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: ESBUILD_TARGET,
  minify: true,
  mainFields: ['module', 'main'],
  banner: { js: ESM_REQUIRE_BANNER },
  logLevel: 'silent',
};
