import { describe, expect, it } from 'vitest';
import type { WebhookSubscription } from '../../../../shared/domain/webhooks/subscription';
import { subscriptionView } from '../../../../shared/domain/webhooks/subscription-view';

const subscription: WebhookSubscription = {
  id: 'wh_abcdefghijklmnopqrst',
  userId: 1,
  url: 'https://partner.example/hooks',
  events: ['limit.reached'],
  entities: [
    { entityType: 'SITE', entityId: 20 },
    { entityType: 'CAMPAIGN', entityId: 100 },
    { entityType: 'CAMPAIGN', entityId: 101 },
  ],
  secrets: [{ value: 'whsec_c2VjcmV0', createdAt: '2026-06-10T00:00:00.000Z' }],
  status: 'disabled',
  disabledReason: 'failed',
  failureRun: { since: '2026-06-10T00:00:00.000Z', attempts: 3 },
  createdAt: '2026-06-09T00:00:00.000Z',
  activeSince: '2026-06-09T12:00:00.000Z',
  version: 4,
};

describe('subscriptionView', () => {
  it('shows everything but the secrets, the owner and the version, filters under their parameters', () => {
    expect(subscriptionView(subscription)).toEqual({
      id: 'wh_abcdefghijklmnopqrst',
      url: 'https://partner.example/hooks',
      events: ['limit.reached'],
      filters: { campaignIds: [100, 101], siteIds: [20] },
      status: 'disabled',
      disabledReason: 'failed',
      failureRun: { since: '2026-06-10T00:00:00.000Z', attempts: 3 },
      createdAt: '2026-06-09T00:00:00.000Z',
      activeSince: '2026-06-09T12:00:00.000Z',
    });
    expect(JSON.stringify(subscriptionView(subscription))).not.toContain('whsec_');
  });
});
