import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { startContractServer } from './contract-server';
import { openAwsRequestLog } from './iam/request-log-run';
import { TEMPLATE_CACHE_DIR } from './template-cache';

/**
 * DynamoDB Local's JVM for a test run: the serial collector, which spends less processor time than the default (G1)
 * on a machine of two cores, and both compilers, the server compiler inlining less than by default. Most of
 * DynamoDB Local's time is its own Java code (JSON, expressions), which the server compiler runs much faster than
 * the first-tier one; at its default inlining sizes it spent some 44 s of a whole run's processor time compiling,
 * at these 17 s, and the run about 28 s less in all (CONTRIBUTING.md, "Test speed"). `java` reads the variable,
 * after any options already set there.
 */
const TEST_JVM_OPTIONS = '-XX:+UseSerialGC -XX:FreqInlineSize=100 -XX:InlineSmallCode=1000';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    contractServer: string;
  }
}

/** What a run starts once and shares between the projects that name this setup (`integration*`). */
interface RunServices {
  dynamoEndpoint: string;
  contractServer: string;
  templates: string;
  stop(vitest: TestProject['vitest']): Promise<void>;
}

const startRun = async (): Promise<RunServices> => {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  process.env.JDK_JAVA_OPTIONS = [process.env.JDK_JAVA_OPTIONS, TEST_JVM_OPTIONS].filter(Boolean).join(' ');
  const contract = await startContractServer();
  // a loaded machine (CI, other runs) may take longer to start the JVM than the 30 s `npm start` waits
  const dynamo = await startDynamoDbLocal({ readyTimeoutMs: 120_000, sharedDb: false }).catch(
    async (error: unknown) => {
      await contract.stop();
      throw error;
    },
  );
  const requestLog = openAwsRequestLog();
  const templates = mkdtempSync(join(tmpdir(), 'templates-'));
  process.env[TEMPLATE_CACHE_DIR] = templates;
  const stop = async (vitest: TestProject['vitest']) => {
    await contract.stop();
    await dynamo.stop();
    try {
      // the check reads the stack's template the tests synthesized, if they did
      await requestLog.check(vitest);
    } finally {
      rmSync(templates, { recursive: true, force: true });
    }
  };
  return { dynamoEndpoint: dynamo.endpoint, contractServer: contract.url, templates, stop };
};

/** The run's services and how many projects use them: each project loads this module anew, the process is one. */
const RUN = Symbol.for('delivery-limits.test-run');
const processWide = globalThis as unknown as Record<symbol, { users: number; run: Promise<RunServices> } | undefined>;

/**
 * One DynamoDB Local for the whole run (every test file works in a table and a database of its own, through an
 * access key of its own: `startTestService`), and one contract server (the OpenAPI document and its validators,
 * built once instead of in every file), whichever projects of the run use them. The AWS requests the local
 * servers' functions send are recorded, and checked against the stack's IAM roles once the last of those projects
 * is over. The stack's templates are synthesized once per run and context (`test/infra/template.ts`), again after
 * a change in watch mode.
 */
export default async function setup(project: TestProject) {
  const shared = (processWide[RUN] ??= { users: 0, run: startRun() });
  shared.users += 1;
  const run = await shared.run;
  project.onTestsRerun(() => {
    rmSync(run.templates, { recursive: true, force: true });
    mkdirSync(run.templates, { recursive: true });
  });
  project.provide('dynamoEndpoint', run.dynamoEndpoint);
  project.provide('contractServer', run.contractServer);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete processWide[RUN];
    await run.stop(project.vitest);
  };
}
