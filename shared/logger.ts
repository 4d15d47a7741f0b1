import { Logger } from '@aws-lambda-powertools/logger';

/**
 * Structured JSON logs through Powertools for AWS Lambda: one line per entry, with the service, the Lambda
 * request id and cold start (the family handlers inject the invocation's context) and the API Gateway request id.
 * `LOG_LEVEL` (debug, info, warn, error, silent) sets the least level written; info by default. Callers pass only
 * fields they chose: requests, bodies and headers are never logged whole, so no credential reaches a log.
 */
const LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'] as const;
const wanted = (process.env.LOG_LEVEL ?? '').toUpperCase();

export const logger = new Logger({
  serviceName: 'delivery-limits',
  logLevel: LEVELS.find((level) => level === wanted) ?? 'INFO',
});

/** The parts of an error that are safe to log: its name, message and stack, never attached request data. */
export const describeError = (error: unknown): Record<string, unknown> =>
  error instanceof Error
    ? { errorName: error.name, errorMessage: error.message, stack: error.stack }
    : { error: String(error) };
