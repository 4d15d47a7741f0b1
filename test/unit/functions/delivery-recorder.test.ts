import { describe, expect, it } from 'vitest';
import { recorderOptionsFromEnvironment } from '../../../functions/delivery-recorder/handler';

describe("the delivery recorder's environment", () => {
  it('reads FUTURE_TOLERANCE_SECONDS, five minutes when unset, and refuses anything but whole seconds', () => {
    expect(recorderOptionsFromEnvironment({})).toEqual({ futureToleranceMs: 300_000 });
    expect(recorderOptionsFromEnvironment({ FUTURE_TOLERANCE_SECONDS: '60' })).toEqual({ futureToleranceMs: 60_000 });
    expect(recorderOptionsFromEnvironment({ FUTURE_TOLERANCE_SECONDS: '0' })).toEqual({ futureToleranceMs: 0 });
    for (const text of ['-1', '1.5', 'five', '99999999'])
      expect(() => recorderOptionsFromEnvironment({ FUTURE_TOLERANCE_SECONDS: text })).toThrow(
        'FUTURE_TOLERANCE_SECONDS',
      );
  });
});
