import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../../shared/domain/access';
import { matchingSubscriptions } from '../../../../shared/domain/webhooks/subscription-matching';
import type { WebhookSubscription } from '../../../../shared/domain/webhooks/subscription';
import type { WebhookEvent } from '../../../../shared/domain/webhooks/webhook-event';
import { ExactNumber } from '../../../../shared/domain/delivery/exact-units';

const subscription = (id: string, changes: Partial<WebhookSubscription>): WebhookSubscription => ({
  id,
  userId: 1,
  url: 'https://partner.example/hook',
  events: ['limit.reached', 'limit.changed'],
  entities: [],
  secrets: [],
  status: 'active',
  createdAt: '2026-11-01T00:00:00Z',
  ...changes,
});

const reached: WebhookEvent = {
  kind: 'limit.reached',
  event: {
    id: 'BANNER#1000/dailyImpressionsLimit=5/D#2026-11-27',
    entity: 'BANNER#1000',
    entityType: 'BANNER',
    entityId: 1000,
    cap: 'dailyImpressionsLimit',
    capValue: 5,
    counter: new ExactNumber('5'),
    bucket: 'D#2026-11-27',
    at: '2026-11-27T10:00:00.000Z',
  },
};
const banner: Entity = { type: 'BANNER', id: 1000, deleted: false, active: true, campaignId: 100, advertiserId: 10 };

describe('which subscriptions hear of an event', () => {
  it('those asking for its kind, unfiltered or filtered on the entity or an ancestor', () => {
    const subscriptions = [
      subscription('all', {}),
      subscription('changes-only', { events: ['limit.changed'] }),
      subscription('this-banner', { entities: [{ entityType: 'BANNER', entityId: 1000 }] }),
      subscription('its-campaign', { entities: [{ entityType: 'CAMPAIGN', entityId: 100 }] }),
      subscription('its-advertiser', { entities: [{ entityType: 'ADVERTISER', entityId: 10 }] }),
      subscription('other-campaign', { entities: [{ entityType: 'CAMPAIGN', entityId: 101 }] }),
      subscription('same-id-other-type', { entities: [{ entityType: 'PLACEMENT', entityId: 1000 }] }),
      subscription('disabled', { status: 'disabled' }),
    ];
    expect(matchingSubscriptions(reached, banner, subscriptions).map((found) => found.id)).toEqual([
      'all',
      'this-banner',
      'its-campaign',
      'its-advertiser',
    ]);
  });

  it('only the entity itself when it is no longer stored', () => {
    const subscriptions = [
      subscription('this-banner', { entities: [{ entityType: 'BANNER', entityId: 1000 }] }),
      subscription('its-campaign', { entities: [{ entityType: 'CAMPAIGN', entityId: 100 }] }),
    ];
    expect(matchingSubscriptions(reached, undefined, subscriptions).map((found) => found.id)).toEqual(['this-banner']);
  });

  it('only those created before the event happened or in its second, whichever its kind', () => {
    const subscriptions = [
      subscription('before', { createdAt: '2026-11-27T09:59:59.999Z' }),
      subscription('same-moment', { createdAt: '2026-11-27T10:00:00.000Z' }),
      // the stream rounds a counting write's time down to the second: a crossing just after this creation bears 10:00:00
      subscription('same-second', { createdAt: '2026-11-27T10:00:00.999Z' }),
      subscription('next-second', { createdAt: '2026-11-27T10:00:01.000Z' }),
    ];
    const changed: WebhookEvent = {
      kind: 'limit.changed',
      event: {
        entityType: 'BANNER',
        entityId: 1000,
        changeId: 'BANNER#1000#V#000000000001',
        change: {
          at: '2026-11-27T10:00:00.000Z',
          operation: 'update',
          by: { userId: 1, username: 'admin', method: 'apiKey' },
          fields: { dailyImpressionsLimit: { from: null, to: 5 } },
        },
      },
    };
    for (const event of [reached, changed])
      expect(matchingSubscriptions(event, banner, subscriptions).map((found) => found.id)).toEqual([
        'before',
        'same-moment',
        'same-second',
      ]);
  });
});
