import { describe, expect, it } from 'vitest';
import { DELIVERY_ATTEMPTS, retryDelaySeconds } from '../../../../shared/domain/webhooks/retry-schedule';

describe('the retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then gives up after the eighth attempt', () => {
    const delays = Array.from({ length: DELIVERY_ATTEMPTS }, (_, index) => retryDelaySeconds(index + 1));
    expect(delays).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000, undefined]);
    expect(DELIVERY_ATTEMPTS).toBe(8);
  });

  it('spans more than 24 hours from the first attempt to the last', () => {
    const total = Array.from({ length: DELIVERY_ATTEMPTS - 1 }, (_, index) => retryDelaySeconds(index + 1)!).reduce(
      (sum, delay) => sum + delay,
    );
    expect(total).toBe(27 * 3600 + 35 * 60 + 5);
  });
});
