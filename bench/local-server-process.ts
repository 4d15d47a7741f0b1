import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

/** The local service as a process of its own, so that its memory can be read apart from the bench's. */
export interface ServerProcess {
  url: string;
  pid: number;
  /** Resident memory now (VmRSS), in bytes. */
  rss(): number;
  /** Peak resident memory (VmHWM) since start or since the last resetPeak(), in bytes. */
  peakRss(): number;
  resetPeak(): void;
  stop(): Promise<void>;
}

export const startServerProcess = async (catalogFile: string): Promise<ServerProcess> => {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'infra/local/main.ts', '--port', '0', '--catalog', catalogFile],
    {
      env: { ...process.env, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /Local API listening on (\S+)/.exec(output);
      if (match) {
        clearInterval(timer);
        resolve(match[1]!);
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`server exited: ${output}`));
      }
    }, 50);
  });
  const status = () => readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return {
    url,
    pid: child.pid!,
    rss: () => Number(/VmRSS:\s+(\d+) kB/.exec(status())?.[1] ?? 0) * 1024,
    peakRss: () => Number(/VmHWM:\s+(\d+) kB/.exec(status())?.[1] ?? 0) * 1024,
    // writing 5 to clear_refs resets the peak (Linux)
    resetPeak: () => writeFileSync(`/proc/${child.pid}/clear_refs`, '5'),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
};

/** Runs `work` over `items` with at most `limit` in flight. */
export const inBatches = async <T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> => {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
};
