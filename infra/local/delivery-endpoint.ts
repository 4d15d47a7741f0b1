import type { SQSEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { createRecorder, recorderOptionsFromEnvironment } from '../../functions/delivery-recorder/handler';
import { jsonResponse } from '../../shared/http/response';
import { asFunction } from './aws-request-log';
import type { ControllableClock } from './controllable-clock';
import { failure, parseJson, type LocalHandler } from './local-answers';
import type { InMemoryEvents } from './in-memory-sinks';
import type { Dependencies } from '../../shared/runtime/dependencies';

/** How many message ids the local transport remembers, to redeliver a message with its first place in the group. */
const REMEMBERED_MESSAGES = 100_000;
const LOCAL_GROUP = 'local';

type PostedMessage = { messageId: string; body: string; group?: string };

/**
 * `[event, …]` (one fresh message per event) or `{"messages": [{"messageId", "body", "group"?}, …]}` (one batch,
 * given ids, each in the message group `group`, `local` when absent).
 */
const postedMessages = (value: unknown): PostedMessage[] | string => {
  if (Array.isArray(value)) return value.map((event) => ({ messageId: randomUUID(), body: JSON.stringify(event) }));
  const messages = (value as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    return 'Send a JSON array of delivery events, or {"messages": [{"messageId": "…", "body": …}]}';
  const posted: PostedMessage[] = [];
  for (const [index, message] of messages.entries()) {
    const { messageId, body, group } = (message ?? {}) as { messageId?: unknown; body?: unknown; group?: unknown };
    if (typeof messageId !== 'string' || messageId === '' || messageId.length > 128)
      return `messages[${index}].messageId must be a string of 1 to 128 characters`;
    if (body === undefined) return `messages[${index}].body is required`;
    if (group !== undefined && (typeof group !== 'string' || group === '' || group.length > 128))
      return `messages[${index}].group must be a string of 1 to 128 characters`;
    posted.push({ messageId, body: JSON.stringify(body), ...(group !== undefined ? { group } : {}) });
  }
  return posted;
};

type Place = { group: string; sequence: string; sentAt: number; receives: number };

/**
 * Where each posted message stands in the queue, as SQS FIFO keeps it: a message id posted before is a redelivery
 * of that message and keeps its group, sequence number and sending time, its receive count one higher; posted again
 * under another group it is refused, naming `group` (SQS cannot move a message to another group). Nothing is
 * assigned unless every message of the post is accepted.
 */
const queuePlaces = (clock: ControllableClock) => {
  const places = new Map<string, Place>();
  let lastSequence = 0n;
  const conflicts = (posted: readonly PostedMessage[]): Record<string, string> => {
    const errors: Record<string, string> = {};
    const groupOf = new Map<string, string>();
    for (const [index, { messageId, group }] of posted.entries()) {
      const first = places.get(messageId)?.group ?? groupOf.get(messageId);
      const asked = group ?? first ?? LOCAL_GROUP;
      if (first !== undefined && asked !== first)
        errors[`messages[${index}].group`] =
          `message ${messageId} was sent in group "${first}": a redelivery keeps its group`;
      groupOf.set(messageId, first ?? asked);
    }
    return errors;
  };
  const placeOf = (messageId: string, group: string | undefined): Place => {
    const known = places.get(messageId);
    if (known) return Object.assign(known, { receives: known.receives + 1 });
    const place = {
      group: group ?? LOCAL_GROUP,
      sequence: String(++lastSequence),
      sentAt: clock.now().getTime(),
      receives: 1,
    };
    places.set(messageId, place);
    if (places.size > REMEMBERED_MESSAGES) places.delete(places.keys().next().value!);
    return place;
  };
  return { conflicts, placeOf };
};

/** What the delivery endpoint works with: the recorder's ports, the queue's clock, and the table's stream. */
export interface DeliveryEndpointParts {
  dependencies: Dependencies;
  clock: ControllableClock;
  events: InMemoryEvents;
  tableStream: { drain(): Promise<void> };
}

/**
 * The recorder Lambda, fed the posted messages as one batch of a FIFO queue (see `queuePlaces`). Like Lambda on a
 * FIFO queue, one batch is processed at a time: posts wait their turn.
 */
export const deliveryEndpoint = ({ dependencies, clock, events, tableStream }: DeliveryEndpointParts): LocalHandler => {
  const recorder = asFunction('delivery-recorder', createRecorder(dependencies, recorderOptionsFromEnvironment()));
  const queue = queuePlaces(clock);
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const result = turn.then(work, work);
    turn = result.catch(() => undefined);
    return result;
  };
  return async (body) => {
    const parsed = parseJson(body);
    if ('error' in parsed) return parsed.error;
    const posted = postedMessages(parsed.value);
    if (typeof posted === 'string') return failure(400, posted);
    const errors = queue.conflicts(posted);
    if (Object.keys(errors).length > 0)
      return failure(400, 'A message posted again keeps the group it was first sent in', { errors });
    const records = posted.map(({ messageId, body: messageBody, group }) => {
      const place = queue.placeOf(messageId, group);
      return {
        messageId,
        body: messageBody,
        attributes: {
          MessageGroupId: place.group,
          SequenceNumber: place.sequence,
          SentTimestamp: String(place.sentAt),
          ApproximateReceiveCount: String(place.receives),
        },
      };
    });
    const { response, summary, limitReached } = await inTurn(async () => {
      // the crossings the table's stream tells from this batch's writes (and any it had failed to tell before)
      const told = events.published.length;
      const recorded = await recorder({ Records: records } as unknown as SQSEvent);
      await tableStream.drain();
      return { ...recorded, limitReached: events.published.slice(told) };
    });
    return jsonResponse(200, {
      ...summary,
      limitReached,
      failedMessageIds: response.batchItemFailures.map((failure) => failure.itemIdentifier),
    });
  };
};
