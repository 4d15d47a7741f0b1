import { Duration, type Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { TRACING_MODULES, ESBUILD_TARGET, ESM_REQUIRE_BANNER, FUNCTION_ENTRIES, type FunctionName } from './bundling';
import { FUNCTION_ACCESS } from './function-access';
import { environmentOf, type EnvironmentVariable } from './function-environment';
import { retainedInProduction } from './retention';
import { WEBHOOK_QUEUES } from './webhook-settings';
import { grantTableAccess } from './table-grants';

export type ServiceFunctions = Record<FunctionName, nodejs.NodejsFunction>;

/** Every function's runtime, the Node.js the bundles target (`ESBUILD_TARGET`); local development runs Node 20.19+. */
export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_24_X;

export interface FunctionOptions {
  production: boolean;
  logRetention: logs.RetentionDays;
  tracing: boolean;
  sourceMaps: boolean;
  reservedConcurrency?: Partial<Record<FunctionName, number>>;
  /** This deployment's value of every variable; each function gets only those its code reads. */
  environment: Partial<Record<EnvironmentVariable, string>>;
}

interface FunctionSettings {
  memorySize: number;
  timeout: Duration;
}

const SETTINGS: Record<FunctionName, FunctionSettings> = {
  authorizer: { memorySize: 256, timeout: Duration.seconds(10) },
  auth: { memorySize: 512, timeout: Duration.seconds(10) },
  'demand-limits': { memorySize: 1024, timeout: Duration.seconds(29) },
  'supply-limits': { memorySize: 512, timeout: Duration.seconds(29) },
  'per-action': { memorySize: 512, timeout: Duration.seconds(29) },
  webhooks: { memorySize: 512, timeout: Duration.seconds(29) },
  'delivery-recorder': { memorySize: 1024, timeout: Duration.seconds(60) },
  'reset-flush': { memorySize: 512, timeout: Duration.minutes(5) },
  'history-events': { memorySize: 256, timeout: Duration.seconds(30) },
  // a batch's deliveries run side by side, each POST bounded by its 10-second timeout
  'webhook-dispatcher': { memorySize: 256, timeout: Duration.seconds(WEBHOOK_QUEUES.functionTimeoutSeconds) },
};

/** A role of its own that may write to its own log group only, rather than the AWS-managed execution policy. */
export const executionRole = (stack: Stack, name: string, logGroup: logs.LogGroup): iam.Role => {
  const role = new iam.Role(stack, `${name}Role`, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  role.addToPolicy(
    new iam.PolicyStatement({
      actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      resources: [logGroup.logGroupArn],
    }),
  );
  return role;
};

/** How every function of the stack is bundled (the reference function adds its hook to it). */
export const bundlingOf = (options: Pick<FunctionOptions, 'sourceMaps' | 'tracing'>): nodejs.BundlingOptions => ({
  format: nodejs.OutputFormat.ESM,
  target: ESBUILD_TARGET,
  minify: true,
  sourceMap: options.sourceMaps,
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  externalModules: options.tracing ? [] : TRACING_MODULES,
  forceDockerBundling: false,
});

const buildFunction = (stack: Stack, name: FunctionName, options: FunctionOptions): nodejs.NodejsFunction => {
  const logGroup = new logs.LogGroup(stack, `${name}Logs`, {
    retention: options.logRetention,
    removalPolicy: retainedInProduction(options.production),
  });
  return new nodejs.NodejsFunction(stack, `${name}Function`, {
    role: executionRole(stack, name, logGroup),
    entry: FUNCTION_ENTRIES[name],
    handler: 'handler',
    runtime: LAMBDA_RUNTIME,
    architecture: lambda.Architecture.ARM_64,
    ...SETTINGS[name],
    environment: {
      ...environmentOf(name, options.environment),
      ...(options.sourceMaps ? { NODE_OPTIONS: '--enable-source-maps' } : {}),
    },
    loggingFormat: lambda.LoggingFormat.JSON,
    logGroup,
    tracing: options.tracing ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
    ...(options.reservedConcurrency?.[name] !== undefined
      ? { reservedConcurrentExecutions: options.reservedConcurrency[name] }
      : {}),
    depsLockFilePath: 'package-lock.json',
    bundling: bundlingOf(options),
  });
};

/** One function per entry of `bundling.ts`, each with its log group, its role and exactly its table access. */
export const buildFunctions = (stack: Stack, table: dynamodb.ITable, options: FunctionOptions): ServiceFunctions =>
  Object.fromEntries(
    (Object.keys(FUNCTION_ENTRIES) as FunctionName[]).map((name) => {
      const fn = buildFunction(stack, name, options);
      grantTableAccess(fn, table, FUNCTION_ACCESS[name]);
      return [name, fn];
    }),
  ) as ServiceFunctions;
