import { parseDeliveryEvent, type DeliveryEvent } from '../../shared/domain/delivery/delivery-event';

/** A delivery event as the recorder reads it from `fields`; a test that builds an invalid one fails at once. */
export const deliveryEvent = (fields: Record<string, unknown>): DeliveryEvent => {
  const parsed = parseDeliveryEvent(fields);
  if (!parsed.ok) throw new Error(`invalid test event: ${parsed.message}`);
  return parsed.event;
};
