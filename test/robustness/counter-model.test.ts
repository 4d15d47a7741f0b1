import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { TEST_SIZE } from '../model/generated-case';
import { REGRESSION_CASES } from '../model/regression-cases';
import { checkCase, counterModelProperty, prepareService } from '../support/counter-model-property';
import { useTestService } from '../support/local-service';

/**
 * The counters against the reference model (`test/model/`): generated messages over several days, kinds and
 * entities, in FIFO groups, regrouped, redelivered, raced, with write faults, through the real recorder on
 * DynamoDB Local. A failure prints fast-check's seed and path (see `replay`).
 */
const ctx = useTestService({ catalogFile: null });

/** `MODEL_SEED=S MODEL_PATH=P npx vitest run test/robustness/counter-model.test.ts` replays a printed failure. */
const replay = {
  ...(process.env.MODEL_SEED ? { seed: Number(process.env.MODEL_SEED) } : {}),
  ...(process.env.MODEL_PATH ? { path: process.env.MODEL_PATH, endOnFailure: true } : {}),
};

beforeAll(async () => {
  await prepareService(ctx.service);
});

describe('delivery counters against the reference model', () => {
  it('come to what the model computes, whatever the order, grouping, redelivery, race or fault', async () => {
    await fc.assert(counterModelProperty(ctx.service, TEST_SIZE), { numRuns: 200, ...replay });
  }, 420_000);

  it.each(Object.entries(REGRESSION_CASES))('%s', async (name, generated) => {
    await checkCase(ctx.service, generated, `regression-${name.replaceAll(' ', '-')}`);
  });
});
