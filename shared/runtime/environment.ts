/*
 * Each function's environment, one schema per function, parsed once when its Lambda entry loads (`lambda.ts`), so a
 * missing or malformed variable fails the cold start with its name instead of the first request that needs it. The
 * schemas are built by functions, not constants, so that a bundle holds only its own function's variable names.
 * Declared and checked here rather than with a schema library: zod/mini cost every bundle some 15 KB and its load
 * (bench/README.md, "Cold start").
 */

/** One variable a function reads: whether it must be set, and the form its whole value must have. */
export interface Variable<Required extends boolean = boolean> {
  readonly required: Required;
  readonly pattern: RegExp;
}

/** A function's variables, by name. */
export type EnvironmentShape = Record<string, Variable>;

/** The declaration a function's entry parses at cold start; `shape` names every variable it reads. */
export interface EnvironmentSchema<Shape extends EnvironmentShape = EnvironmentShape> {
  readonly shape: Shape;
}

/** What parsing an environment under `Shape` gives: a required variable is always there. */
export type ParsedEnvironment<Shape extends EnvironmentShape> = {
  [Name in keyof Shape]: Shape[Name] extends Variable<true> ? string : string | undefined;
};

const ANY = /^/;
const NOT_EMPTY = /^./s;

const required = (): Variable<true> => ({ required: true, pattern: NOT_EMPTY });
const optional = (): Variable<false> => ({ required: false, pattern: ANY });
const wholeNumber = (): Variable<false> => ({ required: false, pattern: /^\d+$/ });
const oneOf = (...values: string[]): Variable<false> => ({
  required: false,
  pattern: new RegExp(`^(?:${values.join('|')})$`),
});

const schema = <Shape extends EnvironmentShape>(shape: Shape): EnvironmentSchema<Shape> => ({ shape });

const table = () => ({ TABLE_NAME: required(), DYNAMODB_ENDPOINT: optional() });
const metrics = () => ({ METRICS_NAMESPACE: required(), STAGE: required() });

/** What every API family reads besides its own ports: table, metrics, tracing, CORS and the partner plan. */
const apiFamily = () => ({
  ...table(),
  ...metrics(),
  POWERTOOLS_TRACE_ENABLED: oneOf('true', 'false'),
  CORS_ORIGINS: optional(),
  PARTNER_RATE_LIMIT: wholeNumber(),
  PARTNER_BURST_LIMIT: wholeNumber(),
  PARTNER_QUOTA_PER_DAY: wholeNumber(),
});

export const authorizerEnvironment = () =>
  schema({ ...table(), ...metrics(), DEFAULT_USAGE_KEY: required(), ANONYMOUS_USAGE_KEY: required() });

export const authEnvironment = () => schema({ ...apiFamily(), MAIL_FROM: required(), APP_BASE_URL: required() });

/** demand-limits and supply-limits: reset.do queues its resets. */
export const limitFamilyEnvironment = () => schema({ ...apiFamily(), RESET_QUEUE_URL: required() });

export const perActionEnvironment = () => schema(apiFamily());

export const webhooksEnvironment = () => schema(apiFamily());

export const deliveryRecorderEnvironment = () =>
  schema({
    ...table(),
    ...metrics(),
    DELIVERY_DLQ_URL: required(),
    FUTURE_TOLERANCE_SECONDS: wholeNumber(),
    AUTO_SHARD_WRITES_PER_SECOND: wholeNumber(),
    AUTO_SHARD_COUNT: wholeNumber(),
  });

export const resetFlushEnvironment = () => schema({ ...table(), ...metrics(), RESET_QUEUE_URL: required() });

export const historyEventsEnvironment = () =>
  schema({ ...table(), ...metrics(), EVENT_BUS_NAME: required(), HISTORY_DLQ_URL: required() });

export const webhookDispatcherEnvironment = () =>
  schema({
    ...table(),
    ...metrics(),
    WEBHOOK_DELIVERIES_QUEUE_URL: required(),
    WEBHOOK_SLOW_LANE_QUEUE_URL: required(),
    WEBHOOK_DELIVERIES_DLQ_URL: required(),
  });

/**
 * The variables `schema` declares, parsed from `env`; a variable missing or malformed throws, naming every such
 * variable (never its value: some are keys).
 */
export const parseEnvironment = <Shape extends EnvironmentShape>(
  { shape }: EnvironmentSchema<Shape>,
  env: NodeJS.ProcessEnv = process.env,
): ParsedEnvironment<Shape> => {
  const parsed: Record<string, string> = {};
  const problems: string[] = [];
  for (const [name, { required, pattern }] of Object.entries(shape)) {
    const value = env[name];
    if (value === undefined) {
      if (required) problems.push(`${name} is missing`);
    } else if (pattern.test(value)) parsed[name] = value;
    else problems.push(`${name} is malformed`);
  }
  if (problems.length) throw new Error(`The function's environment is incomplete: ${problems.join(', ')}`);
  return parsed as ParsedEnvironment<Shape>;
};
