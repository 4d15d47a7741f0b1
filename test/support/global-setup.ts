import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { startContractServer } from './contract-server';
import { openAwsRequestLog } from './iam/request-log-run';
import { TEMPLATE_CACHE_DIR } from './template-cache';

/**
 * DynamoDB Local's JVM for a test run: the first-tier compiler only and the serial collector, which spend a fifth
 * less processor time on the run's requests than the server defaults on a machine of two cores (CONTRIBUTING.md,
 * "Test speed"). `java` reads the variable, after any options already set there.
 */
const TEST_JVM_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    contractServer: string;
  }
}

/**
 * One DynamoDB Local for the whole run (every test file works in tables of its own), and one contract server
 * (the OpenAPI document and its validators, built once instead of in every file). The AWS requests the local
 * servers' functions send are recorded, and checked against the stack's IAM roles once the run is over. The
 * stack's templates are synthesized once per run and context (`test/infra/template.ts`), again after a change
 * in watch mode.
 */
export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  process.env.JDK_JAVA_OPTIONS = [process.env.JDK_JAVA_OPTIONS, TEST_JVM_OPTIONS].filter(Boolean).join(' ');
  const contract = await startContractServer();
  // a loaded machine (CI, other runs) may take longer to start the JVM than the 30 s `npm start` waits
  const dynamo = await startDynamoDbLocal({ readyTimeoutMs: 120_000 }).catch(async (error: unknown) => {
    await contract.stop();
    throw error;
  });
  const requestLog = openAwsRequestLog();
  const templates = mkdtempSync(join(tmpdir(), 'templates-'));
  process.env[TEMPLATE_CACHE_DIR] = templates;
  project.onTestsRerun(() => {
    rmSync(templates, { recursive: true, force: true });
    mkdirSync(templates);
  });
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('contractServer', contract.url);
  return async () => {
    await contract.stop();
    await dynamo.stop();
    try {
      // the check reads the stack's template the tests synthesized, if they did
      await requestLog.check(project.vitest);
    } finally {
      rmSync(templates, { recursive: true, force: true });
    }
  };
}
