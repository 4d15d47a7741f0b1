import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DELIVERY_KINDS,
  parseDeliveryEvent,
  parseDeliveryMessage,
  revenueMillis,
} from '../../../../shared/domain/delivery/delivery-event';
import { deliveryEvent as event } from '../../../support/delivery-event';

const KNOWN_FIELDS = ['kind', 'bannerId', 'placementId', 'actionId', 'revenue', 'count', 'at'];

const SENT = Date.parse('2026-11-22T12:00:00Z');
const DAY = 86_400_000;

const reasonOf = (body: string, sentAt = SENT) => {
  const parsed = parseDeliveryMessage(body, sentAt);
  return parsed.ok ? undefined : parsed.reason;
};

describe('delivery events', () => {
  it('parse one event or an array, and name what is wrong with a malformed one', () => {
    expect(parseDeliveryMessage('{"kind":"click","bannerId":1}', SENT)).toEqual({
      ok: true,
      events: [{ kind: 'click', bannerId: 1, count: 1 }],
    });
    expect(
      parseDeliveryMessage('[{"kind":"click","bannerId":1},{"kind":"request","placementId":2,"count":3}]', SENT),
    ).toEqual({
      ok: true,
      events: [
        { kind: 'click', bannerId: 1, count: 1 },
        { kind: 'request', placementId: 2, count: 3 },
      ],
    });
    for (const [body, reason] of [
      ['not json', 'body is not JSON'],
      ['[]', 'empty array'],
      ['"click"', 'an event must be a JSON object'],
      ['null', 'an event must be a JSON object'],
      ['[[{"kind":"click","bannerId":1}]]', '[0]: an event must be a JSON object'],
      ['{"bannerId":1}', 'kind: kind must be one of impression, click, conversion, opportunity, request'],
      ['{"kind":"view","bannerId":1}', 'kind: kind must be one of'],
      ['{"kind":"click"}', 'bannerId or placementId is required'],
      ['{"kind":"request","bannerId":1}', 'request events count on the supply side only: placementId is required'],
      ['{"kind":"click","bannerId":1,"actionId":7}', 'actionId goes with conversion events only'],
      ['{"kind":"click","bannerId":"1"}', 'bannerId: bannerId must be a positive integer'],
      ['{"kind":"click","bannerId":1.5}', 'bannerId: bannerId must be a positive integer'],
      ['{"kind":"click","bannerId":9007199254740992}', 'bannerId: bannerId must be a positive integer'],
      ['{"kind":"click","placementId":0}', 'placementId: placementId must be a positive integer'],
      ['{"kind":"conversion","bannerId":1,"actionId":-3}', 'actionId: actionId must be a positive integer'],
      ['{"kind":"click","bannerId":1,"revenue":"0.0001"}', 'revenue: revenue must be a non-negative decimal'],
      ['{"kind":"click","bannerId":1,"revenue":"-1"}', 'revenue: revenue must be a non-negative decimal'],
      ['{"kind":"click","bannerId":1,"revenue":1e21}', 'revenue: revenue must be a non-negative decimal'],
      ['{"kind":"click","bannerId":1,"revenue":true}', 'revenue: revenue must be a decimal string'],
      ['{"kind":"click","bannerId":1,"count":0}', 'count: count must be at least 1'],
      ['{"kind":"click","bannerId":1,"count":1000001}', 'count: count must be at most 1000000'],
      ['{"kind":"click","bannerId":1,"count":"2"}', 'count: count must be a whole number from 1 to 1000000'],
      ['{"kind":"click","bannerId":1,"count":null}', 'count: count must be a whole number'],
      ['{"kind":"click","bannerId":1,"count":1e300}', 'count: count must be a whole number'],
      ['[{"kind":"click","bannerId":1},{"kind":"click","bannerId":-1}]', '[1].bannerId: bannerId must be'],
      ['{"kind":"click","bannerId":1,"extra":true,"more":1}', 'unknown field extra, more'],
      ['{"kind":"click","bannerId":1,"revenue":"9999999999999.999","count":2}', 'revenue × count must be at most'],
    ] as const)
      expect(reasonOf(body), body).toEqual(expect.stringContaining(reason));
  });

  it('take an instant with seconds and an offset, on a day the calendar has, parsed once into milliseconds', () => {
    for (const [at, instant] of [
      ['2026-11-22T10:00:00Z', '2026-11-22T10:00:00.000Z'],
      ['2026-11-22T10:00:00.123+02:00', '2026-11-22T08:00:00.123Z'],
      ['2026-11-22T10:00:00.1239876Z', '2026-11-22T10:00:00.123Z'],
      ['2024-02-29T23:59:59-05:30', '2024-03-01T05:29:59.000Z'],
      ['0999-06-01T00:00:00Z', '0999-06-01T00:00:00.000Z'],
      ['0050-03-01T00:00:00Z', '0050-03-01T00:00:00.000Z'],
      ['0000-02-29T00:00:00Z', '0000-02-29T00:00:00.000Z'],
      ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ])
      expect(parseDeliveryEvent({ kind: 'click', bannerId: 1, at }), at).toMatchObject({
        ok: true,
        event: { at: Date.parse(instant!) },
      });
    for (const at of [
      '2026-11-22',
      '2026-11-22T10:00Z',
      '2026-11-22T10:00:00',
      '2026-02-29T10:00:00Z',
      '2100-02-29T10:00:00Z',
      '2026-04-31T10:00:00Z',
      '2026-13-01T10:00:00Z',
      '2026-11-22T24:00:00Z',
      '2026-11-22T10:00:00+24:00',
      1795376631109,
    ])
      expect(parseDeliveryEvent({ kind: 'click', bannerId: 1, at }), String(at)).toEqual({
        ok: false,
        field: 'at',
        message: 'at must be an ISO-8601 instant',
      });
  });

  it('dead-letter a message with an event outside 14 days before to 1 day after its sending, whatever its year', () => {
    const body = (...ats: string[]) => JSON.stringify(ats.map((at) => ({ kind: 'impression', bannerId: 1, at })));
    const iso = (ms: number) => new Date(ms).toISOString();
    for (const at of [SENT - 14 * DAY, SENT, SENT + DAY, SENT - 14 * DAY + 1])
      expect(reasonOf(body(iso(at))), iso(at)).toBeUndefined();
    for (const at of [
      iso(SENT - 14 * DAY - 1),
      iso(SENT + DAY + 1),
      '0999-06-01T00:00:00Z',
      '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
      '2025-11-22T12:00:00Z',
    ])
      expect(reasonOf(body(iso(SENT), at)), at).toMatch(/^\[1\]: at .* is outside the accepted window/);
    expect(reasonOf(body('0999-06-01T00:00:00Z'))).toContain(
      'at 0999-06-01T00:00:00.000Z is outside the accepted window',
    );
    // the window is the message's: the same event is in it for a message sent near its date
    expect(reasonOf(body('0999-06-01T00:00:00Z'), Date.parse('0999-06-02T00:00:00Z'))).toBeUndefined();
  });

  it('answer every JSON value with events or a reason, and keep only the fields it knows', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = parseDeliveryMessage(JSON.stringify(value), SENT);
        if (!parsed.ok) expect(parsed.reason).toMatch(/\S/);
        else
          for (const parsedEvent of parsed.events) {
            expect(DELIVERY_KINDS).toContain(parsedEvent.kind);
            expect(KNOWN_FIELDS).toEqual(expect.arrayContaining(Object.keys(parsedEvent)));
          }
      }),
    );
    fc.assert(
      fc.property(
        fc.record(
          {
            kind: fc.constantFrom(...DELIVERY_KINDS),
            bannerId: fc.integer({ min: 1 }),
            placementId: fc.integer({ min: 1 }),
            revenue: fc.stringMatching(/^\d{1,13}(\.\d{1,3})?$/),
            count: fc.integer({ min: 1, max: 1000 }),
          },
          { requiredKeys: ['kind', 'placementId'] },
        ),
        (fields) => {
          const parsed = parseDeliveryEvent(fields);
          expect(parsed).toEqual({ ok: true, event: { count: 1, ...fields } });
        },
      ),
    );
  });

  it('keeps revenue exact in thousandths', () => {
    expect(revenueMillis('0.001')).toBe(1n);
    expect(revenueMillis('12.5')).toBe(12500n);
    expect(revenueMillis('1234567890123.999')).toBe(1234567890123999n);
    expect(event({ kind: 'click', bannerId: 1, revenue: 0.25 }).revenue).toBe('0.25');
  });
});
