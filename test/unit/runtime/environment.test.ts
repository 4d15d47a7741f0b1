import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  deliveryRecorderEnvironment,
  limitFamilyEnvironment,
  parseEnvironment,
} from '../../../shared/runtime/environment';

const FAMILY = { TABLE_NAME: 'limits', METRICS_NAMESPACE: 'DeliveryLimits/test', STAGE: 'test' };

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
