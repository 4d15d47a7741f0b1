import { describe, expect, it } from 'vitest';
import {
  deliveryEventSchema,
  parseDeliveryMessage,
  revenueMillis,
  type DeliveryEvent,
} from '../../../../shared/domain/delivery/delivery-event';

const event = (fields: Record<string, unknown>): DeliveryEvent => deliveryEventSchema.parse(fields);

describe('delivery events', () => {
  it('parse one event or an array, and name what is wrong with a malformed one', () => {
    expect(parseDeliveryMessage('{"kind":"click","bannerId":1}')).toMatchObject({
      ok: true,
      events: [{ kind: 'click', bannerId: 1, count: 1 }],
    });
    expect(
      parseDeliveryMessage('[{"kind":"click","bannerId":1},{"kind":"request","placementId":2,"count":3}]'),
    ).toMatchObject({ ok: true });
    for (const [body, reason] of [
      ['not json', 'not JSON'],
      ['[]', 'empty'],
      ['{"kind":"click"}', 'bannerId or placementId'],
      ['{"kind":"request","bannerId":1}', 'supply side'],
      ['{"kind":"click","bannerId":1,"actionId":7}', 'conversion'],
      ['{"kind":"click","bannerId":1,"revenue":"0.0001"}', 'revenue'],
      ['{"kind":"click","bannerId":1,"count":0}', 'count'],
      ['[{"kind":"click","bannerId":1},{"kind":"click","bannerId":-1}]', '[1].bannerId'],
      ['{"kind":"click","bannerId":1,"extra":true}', 'extra'],
    ] as const)
      expect(parseDeliveryMessage(body), body).toEqual({ ok: false, reason: expect.stringContaining(reason) });
  });

  it('keeps revenue exact in thousandths', () => {
    expect(revenueMillis('0.001')).toBe(1n);
    expect(revenueMillis('12.5')).toBe(12500n);
    expect(revenueMillis('1234567890123.999')).toBe(1234567890123999n);
    expect(event({ kind: 'click', bannerId: 1, revenue: 0.25 }).revenue).toBe('0.25');
  });
});
