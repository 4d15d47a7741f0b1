import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Vitest } from 'vitest/node';
import { AWS_REQUEST_LOG_DIR, type AwsRequest } from '../../../infra/local/aws-request-log';
import type { Resource } from '../../infra/template';
import { TEMPLATE_CACHE_DIR, templateCacheFile } from '../template-cache';
import type { RequestCheck } from './request-check';

const readRequests = (directory: string): AwsRequest[] => {
  const seen = new Set<string>();
  const requests: AwsRequest[] = [];
  for (const file of readdirSync(directory))
    for (const line of readFileSync(join(directory, file), 'utf8').split('\n')) {
      if (line === '' || seen.has(line)) continue;
      seen.add(line);
      requests.push(JSON.parse(line) as AwsRequest);
    }
  return requests;
};

/**
 * The stack's resources as `cdk synth` builds them: the template a test file of the run already synthesized
 * (`synthesizedTemplate()`), read without loading the CDK, or else a synthesis of its own, without the CDK's
 * CloudFormation validation.
 */
const stackResources = async (): Promise<Record<string, Resource>> => {
  const directory = process.env[TEMPLATE_CACHE_DIR];
  const cached = directory ? templateCacheFile(directory, {}) : undefined;
  if (cached && existsSync(cached))
    return (JSON.parse(readFileSync(cached, 'utf8')) as { Resources: Record<string, Resource> }).Resources;
  const { synthesize } = await import('../../infra/template');
  return synthesize({}).resources;
};

/** Whether every test file of every project ran, and passed: only then are the requests all the tests make. */
const ranEverything = async (vitest: Vitest): Promise<boolean> => {
  const files = vitest.state.getFiles();
  if (files.some((file) => file.result?.state === 'fail')) return false;
  const ran = new Set(files.map((file) => file.filepath));
  const all = await Promise.all(vitest.projects.map((project) => project.globTestFiles()));
  return all.flatMap(({ testFiles }) => testFiles).every((file) => ran.has(file));
};

const describe = ({ request, resource, result }: RequestCheck['denied'][number]) =>
  `  ${request.function}: ${request.action} on ${resource}${request.partitionKey !== undefined ? ` (partition ${request.partitionKey})` : ''}: ${result}`;

const report = (check: RequestCheck): string[] => [
  ...(check.denied.length > 0
    ? ['Requests the deployed roles would refuse (grant them in infra/cdk):', ...check.denied.map(describe)]
    : []),
  ...(check.unused.length > 0
    ? [
        'Grants no request of the tests uses (remove them, or list them with a reason in test/support/iam/unexercised-grants.ts):',
        ...check.unused.map((grant) => `  ${grant.function}: ${grant.action} on ${grant.resource}`),
      ]
    : []),
  ...(check.looseLeadingKeys.length > 0
    ? [
        'Leading keys that reach more partitions than meant (end a prefix with its "#", or name the key exactly, in infra/cdk/function-access.ts):',
        ...check.looseLeadingKeys.map(({ function: fn, pattern }) => `  ${fn}: ${pattern}`),
      ]
    : []),
  ...(check.staleExemptions.length > 0
    ? [
        'Entries of test/support/iam/unexercised-grants.ts that excuse nothing (remove them):',
        ...check.staleExemptions.map((exemption) => `  ${exemption.reason}`),
      ]
    : []),
];

/**
 * The AWS requests of the run: every local server started by a test appends its functions' requests to one folder
 * (`infra/local/aws-request-log.ts`); after the run they are checked against the synthesized roles. A failure
 * fails the run (exit code 1), with what to change.
 */
export const openAwsRequestLog = () => {
  // a folder given beforehand gathers the requests of several runs, and is kept
  const given = process.env[AWS_REQUEST_LOG_DIR];
  const directory = given ?? mkdtempSync(join(tmpdir(), 'aws-requests-'));
  process.env[AWS_REQUEST_LOG_DIR] = directory;
  return {
    async check(vitest: Vitest): Promise<void> {
      try {
        const requests = readRequests(directory);
        if (requests.length === 0) return;
        const complete = await ranEverything(vitest);
        const [{ rolesOf }, { checkRequests }, { UNEXERCISED_GRANTS }] = await Promise.all([
          import('./template-roles'),
          import('./request-check'),
          import('./unexercised-grants'),
        ]);
        const check = await checkRequests(rolesOf(await stackResources()), requests, UNEXERCISED_GRANTS, complete);
        const lines = report(check);
        const scope = complete ? 'both ways' : 'requests only: not every test file ran';
        if (lines.length === 0) {
          console.log(`IAM: ${requests.length} recorded AWS requests checked against the stack's roles (${scope})`);
          return;
        }
        console.error(['', `IAM check failed (${scope}):`, ...lines].join('\n'));
        process.exitCode = 1;
      } finally {
        if (!given) rmSync(directory, { recursive: true, force: true });
      }
    },
  };
};
