import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  authEnvironment,
  deliveryRecorderEnvironment,
  limitFamilyEnvironment,
  parseEnvironment,
} from '../../../shared/runtime/environment';

const FAMILY = { TABLE_NAME: 'limits', METRICS_NAMESPACE: 'DeliveryLimits/test', STAGE: 'test' };
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

/** auth's variables as the operations guide describes them: the rule each value must follow, in declaration order. */
const filled = (value: string) => value !== '';
const AUTH_RULES: Record<string, { required: boolean; valid: (value: string) => boolean }> = {
  TABLE_NAME: { required: true, valid: filled },
  DYNAMODB_ENDPOINT: { required: false, valid: () => true },
  METRICS_NAMESPACE: { required: true, valid: filled },
  STAGE: { required: true, valid: filled },
  POWERTOOLS_TRACE_ENABLED: { required: false, valid: (value) => value === 'true' || value === 'false' },
  CORS_ORIGINS: { required: false, valid: () => true },
  PARTNER_RATE_LIMIT: { required: false, valid: (value) => /^\d+$/.test(value) },
  PARTNER_BURST_LIMIT: { required: false, valid: (value) => /^\d+$/.test(value) },
  PARTNER_QUOTA_PER_DAY: { required: false, valid: (value) => /^\d+$/.test(value) },
  MAIL_FROM: { required: true, valid: filled },
  APP_BASE_URL: { required: true, valid: filled },
};

/** What the rules make of `env`: the declared variables given, or the names of those refused, in their order. */
const referenceOutcome = (env: Record<string, string | undefined>) => {
  const refused = Object.entries(AUTH_RULES)
    .filter(([name, rule]) => (env[name] === undefined ? rule.required : !rule.valid(env[name]!)))
    .map(([name]) => name);
  if (refused.length > 0) return { refused };
  return {
    parsed: Object.fromEntries(
      Object.keys(AUTH_RULES).flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]]])),
    ),
  };
};

const outcome = (env: Record<string, string | undefined>) => {
  try {
    return { parsed: parseEnvironment(authEnvironment(), env) };
  } catch (error) {
    const names = /incomplete: (.*)$/.exec((error as Error).message)![1]!.split(', ');
    return { refused: names.map((problem) => problem.split(' ')[0]!) };
  }
};

describe("a function's environment", () => {
  it('is parsed into the variables its schema declares, and nothing else', () => {
    const parsed = parseEnvironment(limitFamilyEnvironment(), {
      ...FAMILY,
      RESET_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/resets',
      PATH: '/usr/bin',
    });
    expect(parsed).toEqual({ ...FAMILY, RESET_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/resets' });
  });

  it('names every variable missing or malformed, never a value', () => {
    const parse = () =>
      parseEnvironment(deliveryRecorderEnvironment(), {
        ...FAMILY,
        FUTURE_TOLERANCE_SECONDS: 'secret-looking-300',
        STAGE: '',
      });
    expect(parse).toThrow(
      "The function's environment is incomplete: STAGE is malformed, DELIVERY_DLQ_URL is missing, " +
        'FUTURE_TOLERANCE_SECONDS is malformed',
    );
    expect(parse).not.toThrow(/secret-looking/);
  });

  it('refuses an empty whole number and a flag that is neither true nor false, and keeps an empty optional text', () => {
    const env = { ...FAMILY, MAIL_FROM: 'a@b.c', APP_BASE_URL: 'https://x', CORS_ORIGINS: '' };
    expect(parseEnvironment(authEnvironment(), env)).toEqual(env);
    expect(() => parseEnvironment(authEnvironment(), { ...env, PARTNER_RATE_LIMIT: '' })).toThrow(
      /: PARTNER_RATE_LIMIT is malformed$/,
    );
    expect(() => parseEnvironment(authEnvironment(), { ...env, POWERTOOLS_TRACE_ENABLED: 'TRUE' })).toThrow(
      /: POWERTOOLS_TRACE_ENABLED is malformed$/,
    );
  });

  it(`accepts and refuses exactly what each variable's rule says (seed ${SEED})`, () => {
    const value = fc.option(
      fc.oneof(
        fc.constantFrom('', '0', '42', '007', '1.5', '-1', ' 1', '1\n', 'true', 'false', 'True', 'x', '\n'),
        fc.string({ maxLength: 6 }),
      ),
      { nil: undefined },
    );
    const names = Object.keys(AUTH_RULES);
    expect(Object.keys(authEnvironment().shape)).toEqual(names);
    const env = fc.tuple(...names.map(() => value)).map((values) => ({
      ...Object.fromEntries(names.map((name, index) => [name, values[index]])),
      UNRELATED: 'ignored',
    }));
    fc.assert(
      fc.property(env, (generated) => {
        expect(outcome(generated)).toEqual(referenceOutcome(generated));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});

describe("a function's Lambda entry", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('fails its cold start on a missing queue URL, naming it, instead of the first send', async () => {
    for (const [name, value] of Object.entries(FAMILY)) vi.stubEnv(name, value);
    vi.stubEnv('RESET_QUEUE_URL', undefined);
    await expect(import('../../../functions/reset-flush/lambda')).rejects.toThrow(/RESET_QUEUE_URL is missing/);
  });

  it('starts when every variable it needs is set', async () => {
    for (const [name, value] of Object.entries(FAMILY)) vi.stubEnv(name, value);
    vi.stubEnv('RESET_QUEUE_URL', 'https://sqs.eu-west-1.amazonaws.com/123456789012/resets');
    await expect(import('../../../functions/reset-flush/lambda')).resolves.toHaveProperty('handler');
  });
});
