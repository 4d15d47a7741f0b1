/**
 * Structured JSON logs, one line per entry. Callers pass only fields they chose; requests, bodies and
 * headers are never logged whole, so no credential reaches a log.
 */
type Level = 'debug' | 'info' | 'warn' | 'error';

const RANKS: Record<string, number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };

/** `LOG_LEVEL` (debug, info, warn, error or silent; info when unset or unknown) sets the least level written. */
const enabled = (level: Level): boolean =>
  RANKS[level]! >= (RANKS[(process.env.LOG_LEVEL ?? 'info').toLowerCase()] ?? RANKS.info!);

const write = (level: Level, message: string, fields: Record<string, unknown>): void => {
  if (!enabled(level)) return;
  const line = JSON.stringify({ level, message, timestamp: new Date().toISOString(), ...fields });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
};

export const logger = {
  info: (message: string, fields: Record<string, unknown> = {}) => write('info', message, fields),
  warn: (message: string, fields: Record<string, unknown> = {}) => write('warn', message, fields),
  error: (message: string, fields: Record<string, unknown> = {}) => write('error', message, fields),
};

/** The parts of an error that are safe to log: its name, message and stack, never attached request data. */
export const describeError = (error: unknown): Record<string, unknown> =>
  error instanceof Error
    ? { errorName: error.name, errorMessage: error.message, stack: error.stack }
    : { error: String(error) };
