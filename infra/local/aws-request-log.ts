import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FunctionName } from '../cdk/bundling';
import type { EnvironmentVariable } from '../cdk/function-environment';

/** Set by the test run's global setup: the folder every local server appends the AWS requests of its functions to. */
export const AWS_REQUEST_LOG_DIR = 'AWS_REQUEST_LOG_DIR';

/** One AWS request a function sent, as IAM authorizes it. */
export interface AwsRequest {
  function: FunctionName;
  /** The IAM action: each item of a transaction or a batch is its own (`dynamodb:ConditionCheckItem`). */
  action: string;
  /** The variable of the function's environment that names where the request went in its deployment. */
  target: EnvironmentVariable;
  index?: string;
  /** The item's partition key: IAM's `dynamodb:LeadingKeys`. */
  partitionKey?: string;
}

export type AwsRequestKind = Omit<AwsRequest, 'function'>;

/** Partition keys kept per function, action, target and key prefix: the grants' patterns end at the first `#`. */
const KEYS_PER_KIND = 3;

const directory = process.env[AWS_REQUEST_LOG_DIR];
const file = directory ? join(directory, `${process.pid}-${randomUUID()}.jsonl`) : undefined;
const scope = new AsyncLocalStorage<FunctionName>();
const keysByKind = new Map<string, Set<string>>();

/** Whether this process records (only under the test run): when not, nothing below costs anything. */
export const recordingAwsRequests = file !== undefined;

/** Notes requests of the function running now; requests outside a function (the local tools, tests) are not its. */
export const noteAwsRequests = (requests: readonly AwsRequestKind[]): void => {
  const running = scope.getStore();
  if (!file || running === undefined) return;
  const lines: string[] = [];
  for (const request of requests) {
    const prefix = request.partitionKey?.split('#')[0] ?? '';
    const kind = [running, request.action, request.target, request.index ?? '', prefix].join('\t');
    const keys = keysByKind.get(kind) ?? new Set<string>();
    keysByKind.set(kind, keys);
    const key = request.partitionKey ?? '';
    if (keys.has(key) || keys.size >= KEYS_PER_KIND) continue;
    keys.add(key);
    lines.push(JSON.stringify({ function: running, ...request }));
  }
  if (lines.length > 0) appendFileSync(file, `${lines.join('\n')}\n`);
};

/** The handler, running as the named function: the requests it sends are that function's. */
export const asFunction = <A extends unknown[], R>(
  name: FunctionName,
  handler: (...args: A) => Promise<R>,
): ((...args: A) => Promise<R>) =>
  recordingAwsRequests ? (...args: A) => scope.run(name, () => handler(...args)) : handler;
