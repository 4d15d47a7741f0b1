import { describe, expect, it } from 'vitest';
import {
  MAX_SUBSCRIPTIONS_PER_USER,
  subscriptionCapProblem,
} from '../../../../shared/domain/webhooks/subscription-cap';

describe('subscriptionCapProblem', () => {
  it(`lets a user hold ${MAX_SUBSCRIPTIONS_PER_USER} subscriptions, no more`, () => {
    expect(subscriptionCapProblem(MAX_SUBSCRIPTIONS_PER_USER - 1)).toBeUndefined();
    expect(subscriptionCapProblem(MAX_SUBSCRIPTIONS_PER_USER)).toBe(
      `at most ${MAX_SUBSCRIPTIONS_PER_USER} subscriptions per user: delete one first`,
    );
  });
});
