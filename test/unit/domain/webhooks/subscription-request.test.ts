import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LEVELS } from '../../../../shared/domain/levels';
import {
  FILTER_PARAMETERS,
  MAX_FILTER_ENTITIES,
  parseSubscriptionRequest,
} from '../../../../shared/domain/webhooks/subscription-request';
import { WEBHOOK_EVENT_KINDS } from '../../../../shared/domain/webhooks/subscription';

const policy = { loopbackHttp: false };
const URL_OK = 'https://partner.example/hooks';

describe('parseSubscriptionRequest', () => {
  it('names the filters after each level, as the spec names lists of ids', () => {
    expect(FILTER_PARAMETERS).toEqual(['advertiserIds', 'campaignIds', 'bannerIds', 'siteIds', 'placementIds']);
  });

  it('reads a URL, the kinds and the filters, each entity once, in level order', () => {
    const parsed = parseSubscriptionRequest(
      {
        url: URL_OK,
        events: ['limit.changed', 'limit.reached', 'limit.changed'],
        filters: { placementIds: ['200'], campaignIds: ['101', '100', '101'] },
      },
      policy,
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        url: URL_OK,
        events: ['limit.reached', 'limit.changed'],
        entities: [
          { entityType: 'CAMPAIGN', entityId: 101 },
          { entityType: 'CAMPAIGN', entityId: 100 },
          { entityType: 'PLACEMENT', entityId: 200 },
        ],
      },
    });
  });

  it('names every offending parameter at once', () => {
    expect(
      parseSubscriptionRequest(
        { url: undefined, events: [], filters: { bannerIds: ['1', '-2'], siteIds: ['x'] } },
        policy,
      ),
    ).toEqual({
      ok: false,
      errors: {
        url: 'is required',
        events: 'is required: one or more of limit.reached, limit.changed',
        bannerIds: '-2 is not an id: each must be a positive integer',
        siteIds: 'x is not an id: each must be a positive integer',
      },
    });
  });

  it(`refuses more than ${MAX_FILTER_ENTITIES} entities in all, naming the first filter given`, () => {
    const ids = (count: number, from: number) => Array.from({ length: count }, (_, index) => String(from + index));
    const at = (count: number) =>
      parseSubscriptionRequest(
        { url: URL_OK, events: ['limit.reached'], filters: { siteIds: ids(count - 50, 1), bannerIds: ids(50, 1) } },
        policy,
      );
    expect(at(MAX_FILTER_ENTITIES).ok).toBe(true);
    expect(at(MAX_FILTER_ENTITIES + 1)).toEqual({
      ok: false,
      errors: { bannerIds: `at most ${MAX_FILTER_ENTITIES} entities in all, across ${FILTER_PARAMETERS.join(', ')}` },
    });
  });

  it('accepts a request exactly when each part is valid, and then keeps every id sent (seed printed on failure)', () => {
    const idText = fc.oneof(
      fc.integer({ min: 1, max: 10 ** 6 }).map(String),
      fc.constantFrom('0', '-1', 'abc', '1.5', ''),
    );
    const kind = fc.oneof(fc.constantFrom(...WEBHOOK_EVENT_KINDS), fc.constantFrom('limit.crossed', 'LIMIT.REACHED'));
    fc.assert(
      fc.property(
        fc.constantFrom(URL_OK, 'http://partner.example/', undefined),
        fc.array(kind, { maxLength: 4 }),
        fc.dictionary(fc.constantFrom(...FILTER_PARAMETERS), fc.array(idText, { maxLength: 4 })),
        (url, events, filters) => {
          const parsed = parseSubscriptionRequest({ url, events, filters }, policy);
          const idsValid = Object.values(filters).every((values) => values.every((value) => /^[1-9]\d*$/.test(value)));
          const eventsValid =
            events.length > 0 && events.every((event) => (WEBHOOK_EVENT_KINDS as readonly string[]).includes(event));
          expect(parsed.ok).toBe(url === URL_OK && idsValid && eventsValid);
          if (!parsed.ok) {
            expect('url' in parsed.errors).toBe(url !== URL_OK);
            expect('events' in parsed.errors).toBe(!eventsValid);
            return;
          }
          for (const level of LEVELS) {
            const sent = new Set((filters[`${level.idField}s`] ?? []).map(Number));
            const kept = parsed.value.entities.filter((entity) => entity.entityType === level.entityType);
            expect(kept.map((entity) => entity.entityId).sort()).toEqual([...sent].sort());
          }
        },
      ),
    );
  });
});
