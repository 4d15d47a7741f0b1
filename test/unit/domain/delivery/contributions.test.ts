import { describe, expect, it } from 'vitest';
import { messageContributions, targetName, type Ancestry } from '../../../../shared/domain/delivery/contributions';
import type { DeliveryEvent } from '../../../../shared/domain/delivery/delivery-event';
import { deliveryEvent as event } from '../../../support/delivery-event';

const now = new Date('2026-11-22T12:00:00Z');
const ancestry: Ancestry = {
  banners: new Map([[1000, { campaignId: 100, advertiserId: 10 }]]),
  placements: new Map([[200, { siteId: 20 }]]),
};
const of = (events: DeliveryEvent[]) => messageContributions(events, ancestry, now);
const byName = (events: DeliveryEvent[]) =>
  new Map(of(events).contributions.map((contribution) => [targetName(contribution.target), contribution]));

describe("a message's contributions", () => {
  it('count a banner event on the banner, its campaign and its advertiser, and a placement event on the placement and its site', () => {
    const counted = byName([event({ kind: 'impression', bannerId: 1000, placementId: 200, count: 3, revenue: '0.5' })]);
    expect([...counted.keys()].sort()).toEqual([
      'ADVERTISER#10',
      'BANNER#1000',
      'CAMPAIGN#100',
      'PLACEMENT#200',
      'SITE#20',
    ]);
    expect(counted.get('CAMPAIGN#100')!.periods.daily!.get('D#2026-11-22')).toEqual({ impressions: 3n, budget: 1500n });
    // revenue is a demand-side (budget) counter
    expect(counted.get('SITE#20')!.periods.total!.get('T')).toEqual({ impressions: 3n });
  });

  it('fold any number of events into one contribution per counter item, exactly', () => {
    const counted = of(Array.from({ length: 1000 }, () => event({ kind: 'click', bannerId: 1000, revenue: '0.001' })));
    expect(counted.contributions).toHaveLength(3);
    for (const contribution of counted.contributions)
      expect(contribution.periods.total!.get('T')).toEqual({ clicks: 1000n, budget: 1000n });
  });

  it('count requests on the supply side only, and an action on its own counter item of every entity', () => {
    const counted = byName([
      event({ kind: 'request', placementId: 200, bannerId: 1000 }),
      event({ kind: 'conversion', bannerId: 1000, placementId: 200, actionId: 7 }),
    ]);
    expect(counted.get('SITE#20')!.periods.daily!.get('D#2026-11-22')).toMatchObject({ requests: 1n });
    expect(counted.get('BANNER#1000')!.periods.daily!.get('D#2026-11-22')).not.toHaveProperty('requests');
    const actions = [...counted.keys()].filter((name) => name.endsWith('|7')).sort();
    expect(actions).toEqual(['ADVERTISER#10|7', 'BANNER#1000|7', 'CAMPAIGN#100|7', 'PLACEMENT#200|7', 'SITE#20|7']);
    expect(Object.keys(counted.get('CAMPAIGN#100|7')!.periods)).toEqual(['daily', 'total']);
  });

  it('drop and count events for unknown entities', () => {
    expect(of([event({ kind: 'click', bannerId: 999 }), event({ kind: 'click', placementId: 200 })])).toMatchObject({
      recordedEvents: 1,
      unknownEntityEvents: 1,
    });
  });

  it("file events by their own time, else by the message's", () => {
    const counted = byName([event({ kind: 'click', placementId: 200, at: '2026-10-31T23:59:00Z' })]);
    const periods = counted.get('PLACEMENT#200')!.periods;
    expect(
      Object.values(periods)
        .flatMap((keys) => [...keys!.keys()])
        .sort(),
    ).toEqual(['D#2026-10-31', 'M#2026-10', 'T', 'W#2026-W44']);
    expect([
      ...byName([event({ kind: 'click', placementId: 200 })])
        .get('SITE#20')!
        .periods.daily!.keys(),
    ]).toEqual(['D#2026-11-22']);
  });

  it('keep impressions and conversions with their instants for the no-conversion state, on demand entities', () => {
    const counted = byName([
      event({ kind: 'impression', bannerId: 1000, placementId: 200, count: 5, at: '2026-11-22T10:00:00Z' }),
      event({ kind: 'conversion', bannerId: 1000, at: '2026-11-22T11:00:00Z' }),
    ]);
    expect(counted.get('BANNER#1000')).toMatchObject({
      impressions: [{ at: Date.parse('2026-11-22T10:00:00Z'), count: 5n }],
      conversions: [Date.parse('2026-11-22T11:00:00Z')],
    });
    expect(counted.get('SITE#20')).toMatchObject({ impressions: [], conversions: [] });
  });

  it('count an event dated past the tolerance after its message was received at the receive time', () => {
    const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
    const counted = (ms: number) =>
      messageContributions([event({ kind: 'click', bannerId: 1000, at: at(ms) })], ancestry, now, 300_000);
    expect(counted(300_000)).toMatchObject({ futureDatedEvents: 0 });
    expect(counted(300_000).contributions[0]!.conversions).toEqual([]);
    expect(counted(301_000)).toMatchObject({ futureDatedEvents: 1 });
    const tomorrow = counted(86_400_000);
    expect(tomorrow.futureDatedEvents).toBe(1);
    expect([...tomorrow.contributions[0]!.periods.daily!.keys()]).toEqual(['D#2026-11-22']);
    // the default tolerance is five minutes
    expect(
      messageContributions([event({ kind: 'click', bannerId: 1000, at: at(300_001) })], ancestry, now)
        .futureDatedEvents,
    ).toBe(1);
    expect(
      messageContributions([event({ kind: 'click', bannerId: 1000, at: at(300_000) })], ancestry, now)
        .futureDatedEvents,
    ).toBe(0);
  });
});
