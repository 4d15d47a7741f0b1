import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const MAIN = 'infra/local/main.ts';

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const running = new Set<Started>();

/** A test that failed midway leaves its service running, DynamoDB Local with it: stopped as Ctrl-C stops them. */
afterEach(async () => {
  for (const service of running) {
    if (service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill('SIGINT');
      const killer = setTimeout(() => service.child.kill('SIGKILL'), 10_000);
      await service.exited;
      clearTimeout(killer);
    }
  }
  running.clear();
});

const start = (args: string[], env: NodeJS.ProcessEnv = process.env): Started => {
  // node with tsx's loader, not the tsx CLI: the CLI relays Ctrl-C only when the child answers it within a few
  // milliseconds, which a loaded machine may miss; what is under test is the service's own shutdown
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    env: { ...env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = { child, output: () => output, exited };
  running.add(started);
  return started;
};

const waitFor = async (condition: () => boolean, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** Process ids of every descendant of `pid`. */
const descendants = (pid: number): number[] => {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (parent: number) =>
    rows.filter(([, ppid]) => ppid === parent).forEach(([child]) => (found.push(child), walk(child)));
  walk(pid);
  return found;
};

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm start', () => {
  it('serves the API, prints where and the demo users, and stops DynamoDB Local on Ctrl-C', async () => {
    const service = start(['--port', '0']);
    // the banner's lines reach the pipe as separate writes: its last one says it is whole
    await waitFor(() => service.output().includes('Press Ctrl-C to stop.'), 30_000);
    // each step as the README says a reader sees them, the address last, once it answers
    expect(service.output()).toMatch(
      /^Starting DynamoDB Local \(Java\)…\nDynamoDB Local is up: creating the table and loading the catalog…\nLocal API listening on http:\/\/127\.0\.0\.1:\d+\n/,
    );
    const url = /Local API listening on (\S+)/.exec(service.output())![1];
    expect(service.output()).toContain('demo-key-0001');
    expect(await (await fetch(`${url}/_local/health`)).json()).toEqual({ ok: true });
    const children = descendants(service.child.pid!);
    expect(children.length).toBeGreaterThan(0);
    service.child.kill('SIGINT');
    expect(await service.exited).toBe(0);
    await waitFor(() => children.every((pid) => !alive(pid)), 10_000);
  }, 60_000);

  it('exits non-zero with one clear line when the port is taken', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const service = start(['--port', String(port), '--empty']);
      expect(await service.exited).toBe(1);
      expect(service.output()).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    } finally {
      holder.close();
    }
  }, 60_000);

  it('exits non-zero with an instruction when Java is missing', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'no-java-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    const service = start(['--port', '0'], { ...process.env, PATH: bin });
    expect(await service.exited).toBe(1);
    expect(service.output().trim().split('\n').at(-1)).toMatch(/^Java 17 or newer is required .*apt-get install/);
  }, 30_000);

  it('refuses an invalid catalog file with its problems', async () => {
    const service = start(['--port', '0', '--catalog', 'package.json']);
    expect(await service.exited).toBe(1);
    expect(service.output()).toContain('Unrecognized key');
  }, 60_000);
});
