import { LogFormatter, Logger, LogItem } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import type { Context } from 'aws-lambda';

/** The invocation a family handler is serving, as its log lines name it. */
interface Invocation {
  context: Context;
  /** API Gateway's id of the request. */
  requestId?: string;
  coldStart: boolean;
}

let current: Invocation | undefined;

/**
 * Powertools' standard keys, with the context of the invocation being served added as a line is written. Most
 * invocations write no line, so the context costs nothing until one does, where Powertools' `injectLambdaContext`
 * puts it into the logger's invocation-scoped state, and takes it out again, on every invocation.
 */
class InvocationLogFormatter extends LogFormatter {
  formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    const context = current?.context;
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        timestamp: this.formatTimestamp(attributes.timestamp),
        service: attributes.serviceName,
        cold_start: current?.coldStart,
        function_arn: context?.invokedFunctionArn,
        function_memory_size: context?.memoryLimitInMB,
        function_name: context?.functionName,
        function_request_id: context?.awsRequestId,
        sampling_rate: attributes.sampleRateValue,
        xray_trace_id: attributes.xRayTraceId,
        tenant_id: context?.tenantId,
        requestId: current?.requestId,
      },
    }).addAttributes(additional);
  }
}

/**
 * Structured JSON logs through Powertools for AWS Lambda: one line per entry, with the service, the Lambda
 * request id and cold start of the invocation being served and API Gateway's request id. `LOG_LEVEL` (debug,
 * info, warn, error, silent) sets the least level written; info by default. Callers pass only fields they chose:
 * requests, bodies and headers are never logged whole, so no credential reaches a log.
 */
const LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'] as const;
const wanted = (process.env.LOG_LEVEL ?? '').toUpperCase();

export const logger = new Logger({
  serviceName: 'delivery-limits',
  logLevel: LEVELS.find((level) => level === wanted) ?? 'INFO',
  logFormatter: new InvocationLogFormatter(),
});

// Powertools' rule: the first invocation of a container started on demand (a provisioned one starts warm)
const startedOnDemand = process.env.AWS_LAMBDA_INITIALIZATION_TYPE?.trim() === 'on-demand';
let invocations = 0;

/** From here until `endInvocation`, log lines name this invocation. */
export const beginInvocation = (context: Context, requestId: string | undefined): void => {
  current = { context, requestId, coldStart: startedOnDemand && invocations++ === 0 };
};

export const endInvocation = (): void => {
  current = undefined;
};

/** The parts of an error that are safe to log: its name, message and stack, never attached request data. */
export const describeError = (error: unknown): Record<string, unknown> =>
  error instanceof Error
    ? { errorName: error.name, errorMessage: error.message, stack: error.stack }
    : { error: String(error) };
