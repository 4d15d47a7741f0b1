import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../../shared/domain/access';
import { matchingRoutes } from '../../../../shared/domain/webhooks/subscription-matching';
import type { WebhookRoute } from '../../../../shared/domain/webhooks/subscription-route';
import type { WebhookEvent } from '../../../../shared/domain/webhooks/webhook-event';
import { ExactNumber } from '../../../../shared/domain/delivery/exact-units';

const subscription = (id: string, changes: Partial<WebhookRoute>): WebhookRoute => ({
  id,
  userId: 1,
  events: ['limit.reached', 'limit.changed'],
  entities: [],
  activeSince: '2026-11-01T00:00:00Z',
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
    ];
    expect(matchingRoutes(reached, banner, subscriptions).map((found) => found.id)).toEqual([
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
    expect(matchingRoutes(reached, undefined, subscriptions).map((found) => found.id)).toEqual(['this-banner']);
  });

  it('only those active since before the event happened or since its second, whichever its kind', () => {
    const subscriptions = [
      subscription('before', { activeSince: '2026-11-27T09:59:59.999Z' }),
      subscription('same-moment', { activeSince: '2026-11-27T10:00:00.000Z' }),
      // the stream rounds a counting write's time down to the second: a crossing just after this creation or enable.do
      // bears 10:00:00
      subscription('same-second', { activeSince: '2026-11-27T10:00:00.999Z' }),
      subscription('next-second', { activeSince: '2026-11-27T10:00:01.000Z' }),
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
      expect(matchingRoutes(event, banner, subscriptions).map((found) => found.id)).toEqual([
        'before',
        'same-moment',
        'same-second',
      ]);
  });
});
