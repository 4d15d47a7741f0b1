import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { vi } from 'vitest';

/** What a command-line tool did: its exit code and what it wrote. */
export interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
}

const execFileAsync = promisify(execFile);

/** The tool run as a user runs it: a Node.js process with tsx, its own environment only. */
export const spawnTool = async (script: string, args: string[], env: NodeJS.ProcessEnv): Promise<ToolRun> => {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, ['--import', 'tsx', script, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
};

/** Thrown by the stubbed `process.exit`: ends the tool's module where the process would have ended. */
class ToolExit extends Error {}

const LISTENED = ['SIGINT', 'SIGTERM', 'uncaughtException'];
/** `process` as the emitter of the events a tool listens to (`npm start` stops on a signal). */
const emitter = process as NodeJS.EventEmitter;

const replaceEnvironment = (env: NodeJS.ProcessEnv): void => {
  for (const name of Object.keys(process.env)) delete process.env[name];
  Object.assign(process.env, env);
};

const runAlone = async (script: string, args: string[], env: NodeJS.ProcessEnv): Promise<ToolRun> => {
  const path = resolve(script);
  const saved = { argv: process.argv, env: { ...process.env }, exitCode: process.exitCode };
  const listeners = LISTENED.map((event) => [event, emitter.listeners(event)] as const);
  const run: ToolRun & { exited: boolean } = { code: 0, stdout: '', stderr: '', exited: false };
  const write =
    (stream: 'stdout' | 'stderr') =>
    (...parts: unknown[]) => {
      if (!run.exited) run[stream] += `${parts.map(String).join(' ')}\n`;
    };
  const spies = [
    vi.spyOn(console, 'log').mockImplementation(write('stdout')),
    vi.spyOn(console, 'info').mockImplementation(write('stdout')),
    vi.spyOn(console, 'error').mockImplementation(write('stderr')),
    vi.spyOn(console, 'warn').mockImplementation(write('stderr')),
    vi.spyOn(process, 'exit').mockImplementation((code) => {
      if (!run.exited) Object.assign(run, { exited: true, code: Number(code ?? 0) });
      throw new ToolExit();
    }),
  ];
  process.argv = [process.execPath, path, ...args];
  replaceEnvironment(env);
  process.exitCode = undefined;
  vi.resetModules();
  try {
    await import(/* @vite-ignore */ pathToFileURL(path).href);
    if (!run.exited) run.code = Number(process.exitCode ?? 0);
  } catch (error) {
    // an error the tool lets escape ends a process with its stack trace on stderr and exit code 1
    if (!(error instanceof ToolExit) && !run.exited)
      Object.assign(run, { code: 1, stderr: `${run.stderr}${(error as Error).stack ?? String(error)}\n` });
  } finally {
    for (const spy of spies) spy.mockRestore();
    process.argv = saved.argv;
    replaceEnvironment(saved.env);
    process.exitCode = saved.exitCode;
    for (const [event, before] of listeners)
      for (const listener of emitter.listeners(event))
        if (!before.includes(listener)) emitter.off(event, listener as () => void);
  }
  return { code: run.code, stdout: run.stdout, stderr: run.stderr };
};

/** The run in progress: runs share `process.argv`, `process.env` and the console, so they take turns. */
let previous: Promise<unknown> = Promise.resolve();

/**
 * The tool's module evaluated afresh in this worker, as `node --import tsx script args` would run it, with
 * `process.argv` and `process.env` as given: a spawn costs a second or two of start-up, this a few milliseconds.
 * The first `process.exit` ends the run with its code, as it ends a process: what the tool would do after it
 * (a `catch` around the exit, say) is neither run to completion nor recorded.
 */
export const runToolInProcess = (script: string, args: string[], env: NodeJS.ProcessEnv): Promise<ToolRun> => {
  // a run left by a test that timed out finishes before the next one starts
  const run = previous.catch(() => undefined).then(() => runAlone(script, args, env));
  previous = run;
  return run;
};
