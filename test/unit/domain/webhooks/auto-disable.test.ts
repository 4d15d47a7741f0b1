import { describe, expect, it } from 'vitest';
import { shouldDisable } from '../../../../shared/domain/webhooks/auto-disable';
import type { WebhookSubscription } from '../../../../shared/domain/webhooks/subscription';

const subscription = (changes: Partial<WebhookSubscription>): WebhookSubscription => ({
  id: 'whk_1',
  userId: 1,
  url: 'https://partner.example/hook',
  events: ['limit.reached'],
  entities: [],
  secrets: [{ value: 'whsec_AAAA', createdAt: '2026-11-01T00:00:00Z' }],
  status: 'active',
  createdAt: '2026-11-01T00:00:00Z',
  activeSince: '2026-11-01T00:00:00Z',
  version: 0,
  ...changes,
});

describe('automatic disabling', () => {
  const since = '2026-11-20T00:00:00.000Z';
  it('turns a subscription off once its run of failures has lasted 5 days', () => {
    const failing = subscription({ failureRun: { since, attempts: 30 } });
    expect(shouldDisable(failing, new Date('2026-11-24T23:59:59.999Z'))).toBe(false);
    expect(shouldDisable(failing, new Date('2026-11-25T00:00:00.000Z'))).toBe(true);
  });

  it('leaves alone one with no run of failures, or one already off', () => {
    const now = new Date('2026-12-31T00:00:00Z');
    expect(shouldDisable(subscription({}), now)).toBe(false);
    expect(shouldDisable(subscription({ status: 'disabled', failureRun: { since, attempts: 9 } }), now)).toBe(false);
  });
});
