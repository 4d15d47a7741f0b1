import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (their time in an idle run of the whole suite, CONTRIBUTING.md "Test
 * speed"): within its project, each starts before every other file, so that none is left running alone at the end.
 * Without results of an earlier run (a fresh clone, CI) vitest starts each project's largest files first: short,
 * long-running files such as `counter-model.test.ts` then ran alone at the end.
 */
const LONGEST_FILES = [
  'test/robustness/counter-model.test.ts',
  'test/robustness/many-groups.test.ts',
  'test/robustness/exactly-once.test.ts',
  'test/infra/deployment.test.ts',
  'test/integration/npm-start.test.ts',
  'test/robustness/fault-injection.test.ts',
  'test/robustness/group-markers.test.ts',
  'test/integration/limits-rules.test.ts',
  'test/integration/cli-failures.test.ts',
  'test/infra/stack.test.ts',
  'test/robustness/all-or-nothing.test.ts',
  'test/robustness/fuzz-requests.test.ts',
  'test/robustness/authorization-matrix.test.ts',
  'test/integration/writes-and-history.test.ts',
  'test/integration/shard-raises.test.ts',
  'test/integration/delivery.test.ts',
  // the unit project's two longest, first in `npm run test:unit` too
  'test/unit/simulate/capacity.test.ts',
  'test/unit/adapters/dynamodb/counter-requests.test.ts',
];

/**
 * V8 optimizes a function with its top compiler (TurboFan) after 16 times the usual budget of interpreted work: the
 * run's worker threads load thousands of functions that run a few hundred times each, and compiling them took V8's
 * helper threads about 60 s of processor time in a whole run, most of it for code that ran too briefly to repay it
 * (CONTRIBUTING.md, "V8's optimizing compiler"). The flag is process-wide, so the workers, started after this file
 * is read, have it too. The collector's flag (`--single-threaded-gc`) is V8's too, but V8 refuses it once the process
 * runs: `package.json`'s test scripts give it to `node`.
 */
setFlagsFromString('--interrupt-budget=1081344');

/** Unit test files that need modules of their own: they check what a module does when it is first loaded. */
const UNIT_FILES_ISOLATED = [
  'test/unit/adapters/dynamodb/dynamodb-client.test.ts',
  'test/unit/observability/log-context.test.ts',
  'test/unit/observability/metrics.test.ts',
  'test/unit/pipeline/operation-failures.test.ts',
  'test/unit/runtime/dependencies.test.ts',
  'test/unit/runtime/environment.test.ts',
];

/** Every unit file: a green unit run prints no error-level log line and no metrics warning. */
const UNIT_SETUP = 'test/support/quiet-output.ts';

/**
 * Integration files that need modules of their own: they set the environment a module reads when it loads (the log
 * level, auto-sharding), stub it, or evaluate modules afresh themselves (the command-line tools, `tool-run.ts`).
 */
const INTEGRATION_FILES_ISOLATED = [
  'test/infra/observability.test.ts',
  'test/integration/access-log.test.ts',
  'test/integration/catalog-import.test.ts',
  'test/integration/cli-failures.test.ts',
  'test/integration/log-secrets.test.ts',
  'test/integration/malformed-requests.test.ts',
  'test/integration/npm-start.test.ts',
  'test/integration/password-reset-mail.test.ts',
  'test/integration/shard-raises.test.ts',
  'test/integration/sharded-counters.test.ts',
  'test/integration/webhook-replay-cli.test.ts',
];

/** What every integration file runs with: the run's DynamoDB Local and contract server, and the contract check. */
const integration = {
  globalSetup: ['test/support/global-setup.ts'],
  // every exchange a test has with the API through fetch is checked against the OpenAPI document
  setupFiles: ['test/support/contract-setup.ts'],
};

/**
 * The projects, one after the other in the order they run: `integration`, which holds the longest files, first. vitest
 * keeps a worker that shares its modules between files (`isolate: false`) only while the next file waiting is of its
 * project; with the projects' files taken in turn it ended such workers throughout the run, and each new one imported
 * the SDK, the local service and the CDK again (CONTRIBUTING.md, "The order of the projects").
 */
const PROJECTS: (TestProjectInlineConfiguration & { test: { name: string } })[] = [
  // one module registry per worker: each file spent a second or more of processor time importing
  {
    extends: true,
    test: {
      name: 'integration',
      include: ['test/**/*.test.ts'],
      exclude: ['test/unit/**', ...INTEGRATION_FILES_ISOLATED],
      isolate: false,
      ...integration,
      setupFiles: [...integration.setupFiles, 'test/support/cold-containers.ts'],
    },
  },
  { extends: true, test: { name: 'integration-isolated', include: INTEGRATION_FILES_ISOLATED, ...integration } },
  // one module registry per worker too: each unit file spent more time importing than testing
  {
    extends: true,
    test: {
      name: 'unit',
      include: ['test/unit/**/*.test.ts'],
      exclude: UNIT_FILES_ISOLATED,
      isolate: false,
      setupFiles: [UNIT_SETUP],
    },
  },
  { extends: true, test: { name: 'unit-isolated', include: UNIT_FILES_ISOLATED, setupFiles: [UNIT_SETUP] } },
];

/** Project by project, in the order of `PROJECTS`; within one, the longest files first; then vitest's order. */
class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rankIn = (list: readonly string[], name: string) => {
      const index = list.indexOf(name);
      return index === -1 ? list.length : index;
    };
    const projectNames = PROJECTS.map((project) => project.test.name);
    const keyed = sorted.map((file, index) => ({
      file,
      key: [
        rankIn(projectNames, file.project.name),
        rankIn(LONGEST_FILES, relative(this.ctx.config.root, file.moduleId).replaceAll('\\', '/')),
        index,
      ],
    }));
    keyed.sort((a, b) => a.key[0]! - b.key[0]! || a.key[1]! - b.key[1]! || a.key[2]! - b.key[2]!);
    return keyed.map(({ file }) => file);
  }
}

/**
 * Two layers: `unit` (test/unit: pure code and handlers with their AWS clients mocked, no engine, no server; the
 * files that need fresh modules in `unit-isolated`) and `integration` (everything else, on the run's DynamoDB
 * Local; the files that need fresh modules in `integration-isolated`). `npm test` runs them all.
 */
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'threads',
    // vitest's default is one worker less than the cores: on two cores, one file at a time, which left a core idle
    // while a file waited on DynamoDB Local or its server
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // project by project, the longest files first, so that none is left running alone at the end
    sequence: { sequencer: LongestFirstSequencer },
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', LOG_LEVEL: 'silent' },
    projects: PROJECTS,
  },
});
