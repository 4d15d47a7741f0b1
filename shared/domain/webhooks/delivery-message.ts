import { ExactNumber } from '../delivery/exact-units';
import type { LimitReached } from '../delivery/limit-reached';
import type { LimitChanged } from '../history/limit-changed';
import { LIMIT_CHANGED, LIMIT_REACHED } from '../event-names';
import { ENTITY_TYPES } from '../levels';
import type { WebhookDelivery, WebhookEvent } from './webhook-event';

/** The kind a delivery names each of the bus's detail types by. */
const BUS_DETAIL_TYPES = { [LIMIT_REACHED]: 'limit.reached', [LIMIT_CHANGED]: 'limit.changed' } as const;

/** A message no retry can mend: it goes to the dead-letter queue at once, with this reason. */
export class UndeliverableMessage extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const checkedEntity = (event: Record<string, unknown>) => {
  if (!ENTITY_TYPES.includes(event.entityType as never) || !Number.isSafeInteger(event.entityId))
    throw new UndeliverableMessage('the event names no entity');
};

/** A counter read back exactly: from its text when a delivery carries it, from the number literal on the bus. */
const exactCounter = (value: unknown): ExactNumber => {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^-?\d+(\.\d+)?$/.test(text))
    throw new UndeliverableMessage('a LimitReached without a plain counter');
  return new ExactNumber(text);
};

const checkedEvent = (kind: unknown, event: unknown, counterText?: string): WebhookEvent => {
  if (!isObject(event)) throw new UndeliverableMessage('no event');
  checkedEntity(event);
  if (kind === 'limit.reached') {
    if (typeof event.id !== 'string' || typeof event.cap !== 'string' || typeof event.at !== 'string')
      throw new UndeliverableMessage('a LimitReached without its id, cap or time');
    return {
      kind,
      event: { ...event, counter: exactCounter(counterText ?? event.counter) } as unknown as LimitReached,
    };
  }
  if (kind === 'limit.changed') {
    if (typeof event.changeId !== 'string' || !isObject(event.change) || typeof event.change.at !== 'string')
      throw new UndeliverableMessage('a LimitChanged without its id or entry');
    return { kind, event: event as unknown as LimitChanged };
  }
  throw new UndeliverableMessage(`an event of unknown kind ${String(kind)}`);
};

const parsed = (body: string): Record<string, unknown> => {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new UndeliverableMessage('the message is not JSON');
  }
  if (!isObject(value)) throw new UndeliverableMessage('the message is not a JSON object');
  return value;
};

/**
 * An event as the bus hands it to the events queue. Its counter is a number literal, which JSON.parse would round
 * beyond 2^53: it is read from the message's text instead (a LimitReached has one `counter`).
 */
export const eventOfBusMessage = (body: string): WebhookEvent => {
  const envelope = parsed(body);
  const kind = BUS_DETAIL_TYPES[envelope['detail-type'] as keyof typeof BUS_DETAIL_TYPES];
  const counterText = /"counter":\s*(-?\d+(?:\.\d+)?)[,}\s]/.exec(body)?.[1];
  return checkedEvent(kind, envelope.detail, kind === 'limit.reached' ? counterText : undefined);
};

export const isBusMessage = (body: string): boolean => body.includes('"detail-type"');

/** A delivery as the deliveries queue carries it: the counter as text, so that it stays exact. */
export const deliveryMessageBody = ({ subscriptionId, userId, event, priorAttempts }: WebhookDelivery): string =>
  JSON.stringify(
    {
      subscriptionId,
      userId,
      ...(priorAttempts !== undefined ? { priorAttempts } : {}),
      kind: event.kind,
      event: event.event,
    },
    (_key, value: unknown) => (value instanceof ExactNumber ? value.text : value),
  );

export const deliveryOfMessage = (body: string): WebhookDelivery => {
  const message = parsed(body);
  if (typeof message.subscriptionId !== 'string' || !Number.isSafeInteger(message.userId))
    throw new UndeliverableMessage('a delivery without its subscription');
  const priorAttempts = Number.isSafeInteger(message.priorAttempts) ? (message.priorAttempts as number) : undefined;
  return {
    subscriptionId: message.subscriptionId,
    userId: message.userId as number,
    event: checkedEvent(message.kind, message.event),
    ...(priorAttempts !== undefined && priorAttempts >= 0 ? { priorAttempts } : {}),
  };
};
