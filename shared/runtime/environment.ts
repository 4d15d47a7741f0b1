import * as z from 'zod/mini';

/*
 * Each function's environment, one zod schema per function, parsed once when its Lambda entry loads (`lambda.ts`),
 * so a missing or malformed variable fails the cold start with its name instead of the first request that needs it.
 * The schemas are built by functions, not constants, so that a bundle holds only its own function's variable names.
 * zod/mini, not zod's full build: the same checks in a fraction of the bundle (docs/architecture.md, "Dependencies").
 */

/** A function's environment schema; `shape` names every variable its entry reads. */
export type EnvironmentSchema<Shape extends z.core.$ZodLooseShape = z.core.$ZodLooseShape> = z.ZodMiniObject<Shape>;

const required = () => z.string().check(z.minLength(1));
const optional = () => z.optional(z.string());
const wholeNumber = () => z.optional(z.string().check(z.regex(/^\d+$/)));
const oneOf = <const Values extends readonly [string, ...string[]]>(...values: Values) => z.optional(z.enum(values));

const schema = <Shape extends z.core.$ZodLooseShape>(shape: Shape): EnvironmentSchema<Shape> => z.object(shape);

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
export const parseEnvironment = <Shape extends z.core.$ZodLooseShape>(
  schema: EnvironmentSchema<Shape>,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<EnvironmentSchema<Shape>> => {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0]);
    return env[name] === undefined ? `${name} is missing` : `${name} is malformed`;
  });
  throw new Error(`The function's environment is incomplete: ${[...new Set(problems)].join(', ')}`);
};
