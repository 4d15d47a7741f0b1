import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { openAwsRequestLog } from './iam/request-log-run';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

/**
 * One DynamoDB Local for the whole run; every test file works in tables of its own. The AWS requests the local
 * servers' functions send are recorded, and checked against the stack's IAM roles once the run is over.
 */
export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const dynamo = await startDynamoDbLocal();
  const requestLog = openAwsRequestLog();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return async () => {
    await dynamo.stop();
    await requestLog.check(project.vitest);
  };
}
