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

  it('reads AUTO_SHARD_WRITES_PER_SECOND and AUTO_SHARD_COUNT together, off when both are unset', () => {
    expect(recorderOptionsFromEnvironment({ AUTO_SHARD_WRITES_PER_SECOND: '200', AUTO_SHARD_COUNT: '32' })).toEqual({
      futureToleranceMs: 300_000,
      autoShard: { writesPerSecond: 200, shards: 32 },
    });
    for (const [rate, count] of [
      ['200', undefined],
      [undefined, '16'],
      ['0', '16'],
      ['200', '1'],
      ['200', '129'],
      ['2.5', '4'],
    ])
      expect(() =>
        recorderOptionsFromEnvironment({ AUTO_SHARD_WRITES_PER_SECOND: rate, AUTO_SHARD_COUNT: count }),
      ).toThrow('AUTO_SHARD_COUNT');
  });
});
