import { applyToCounterItem, type AppliedCounterWrite } from '../adapters/dynamodb/counter-store';
import { applyToEntityCounters } from '../adapters/dynamodb/counter-shards-store';
import type { AutoSharding } from '../domain/delivery/counter-shards';
import { followTally, tallies } from './auto-sharding';
import { loadAncestry, loadCounterCaps } from '../adapters/dynamodb/delivery-reads';
import { ACTION_METRICS, ACTION_PERIODS } from '../domain/limits/metrics';
import type { TableStore } from '../adapters/dynamodb/table-store';
import { inParallel } from '../support/concurrency';
import { messagesToRetry } from '../domain/delivery/batch-outcome';
import { messageContributions, targetName, type CounterTarget } from '../domain/delivery/contributions';
import {
  isPastRedeliveryHorizon,
  isSequenceNumber,
  sequenceText,
  type PendingMessage,
} from '../domain/delivery/counter-plan';
import { parseDeliveryMessage, type DeliveryEvent } from '../domain/delivery/delivery-event';
import type { CapOnCounter } from '../domain/delivery/limit-reached';
import { describeError, logger } from '../observability/logger';
import { emitMetrics } from '../observability/metrics';
import type { Clock } from '../ports/clock';
import type { DeadLetterSink } from '../ports/dead-letters';
import { InvalidRequest } from '../domain/errors';
import { deadLetterInvalidWrites, type InvalidWrite } from './invalid-writes';
import { actionCountersKey } from '../table/keys';

export interface RecorderPorts {
  store: TableStore;
  clock: Clock;
  deadLetters: DeadLetterSink;
}

/** One message of the delivery queue, with its place in its FIFO message group. */
export interface DeliveryMessage {
  messageId: string;
  body: string;
  /** SQS FIFO `MessageGroupId` and `SequenceNumber`; a message without them cannot be applied exactly once. */
  group?: string;
  sequence?: string;
  /** When the queue received it (ms): the instant of its events that carry no `at`, the same on every redelivery. */
  sentAt?: number;
  /**
   * Set on the replay of a dead letter (see `replayOfDeadLetter`): the only counter items it may change, those that
   * did not take it. Its group is fresh, so the redelivery horizon does not hold it back.
   */
  replayTo?: readonly string[];
}

/** How the recorder is set up (see the delivery-recorder function's environment). */
export interface RecorderOptions {
  /** How far an event's `at` may lie after its message's receive time; `DEFAULT_FUTURE_TOLERANCE_MS` when absent. */
  futureToleranceMs?: number;
  /** Shards an advertiser's counters above a write rate (see `followTally`); off when absent. */
  autoShard?: AutoSharding;
}

export interface RecordingSummary {
  messages: number;
  recordedEvents: number;
  unknownEntityEvents: number;
  /** Events dated too far past their message's receive time, counted at the receive time. */
  futureDatedEvents: number;
  deadLettered: { messageId: string; reason: string }[];
  /** Messages every counter item they touch had already applied: delivered again, counted once. */
  duplicateMessages: number;
  counterWrites: number;
}

export interface RecordingResult {
  /** Messages to be delivered again (SQS partial batch response), in group order. */
  failedMessageIds: string[];
  summary: RecordingSummary;
}

const WRITE_CONCURRENCY = 16;

const writeTo = async (
  { store, clock }: RecorderPorts,
  target: CounterTarget,
  pending: readonly PendingMessage[],
  caps: readonly CapOnCounter[],
  now: Date,
  auto: AutoSharding | undefined,
): Promise<AppliedCounterWrite> => {
  if (target.actionId !== undefined)
    return applyToCounterItem(
      store,
      actionCountersKey(target.type, target.id, target.actionId),
      pending,
      ACTION_PERIODS,
      ACTION_METRICS,
      { now, caps },
    );
  const tallyAt = tallies(target.type, auto) ? { tallyAt: now.getTime() } : {};
  const applied = await applyToEntityCounters(store, target.type, target.id, pending, clock, {
    now,
    caps,
    ...tallyAt,
  });
  if (auto) await followTally(store, clock, target, applied, auto);
  return applied;
};

type ParsedMessage = Required<Pick<DeliveryMessage, 'group' | 'sequence'>> &
  Pick<DeliveryMessage, 'replayTo'> & {
    messageId: string;
    body: string;
    events: DeliveryEvent[];
    sentAt: Date;
  };

const PAST_HORIZON =
  'sent more than 14 days ago (past the redelivery horizon): its group markers may have been pruned, so it is not ' +
  'counted; see docs/exactly-once.md to reconcile it by hand';

/** Parses a batch: malformed messages and messages without their FIFO place go to the dead-letter queue at once. */
const parseBatch = async (ports: RecorderPorts, messages: readonly DeliveryMessage[], now: Date) => {
  const valid: ParsedMessage[] = [];
  const deadLettered: RecordingSummary['deadLettered'] = [];
  const failed: string[] = [];
  for (const message of messages) {
    const parsed = parseDeliveryMessage(message.body, message.sentAt ?? now.getTime());
    const reason = !parsed.ok
      ? parsed.reason
      : message.group === undefined || message.sequence === undefined
        ? 'no MessageGroupId or SequenceNumber: delivery events must come through the FIFO queue'
        : !isSequenceNumber(message.sequence)
          ? 'SequenceNumber is not a decimal number of at most 40 digits, as SQS FIFO gives'
          : message.replayTo === undefined &&
              message.sentAt !== undefined &&
              isPastRedeliveryHorizon(new Date(message.sentAt), now)
            ? PAST_HORIZON
            : undefined;
    if (parsed.ok && reason === undefined) {
      valid.push({
        messageId: message.messageId,
        body: message.body,
        events: parsed.events,
        group: message.group!,
        sequence: sequenceText(message.sequence!),
        sentAt: message.sentAt !== undefined ? new Date(message.sentAt) : now,
        ...(message.replayTo ? { replayTo: message.replayTo } : {}),
      });
      continue;
    }
    logger.warn('delivery message sent to the dead-letter queue', { messageId: message.messageId, reason });
    try {
      await ports.deadLetters.send(message.body, reason!);
      deadLettered.push({ messageId: message.messageId, reason: reason! });
    } catch (error) {
      logger.error('dead-lettering failed', { messageId: message.messageId, ...describeError(error) });
      failed.push(message.messageId);
    }
  }
  return { valid, deadLettered, failed };
};

type PendingByTarget = Map<string, { target: CounterTarget; pending: PendingMessage[] }>;

/** The batch's valid messages, each once (a message twice in one batch is one message), and the summary so far. */
const acceptedMessages = async (ports: RecorderPorts, messages: readonly DeliveryMessage[], now: Date) => {
  const parsedBatch = await parseBatch(ports, messages, now);
  const valid = parsedBatch.valid.filter(
    (message, index, all) => all.findIndex((other) => other.messageId === message.messageId) === index,
  );
  const summary: RecordingSummary = {
    messages: messages.length,
    recordedEvents: 0,
    unknownEntityEvents: 0,
    futureDatedEvents: 0,
    deadLettered: parsedBatch.deadLettered,
    duplicateMessages: parsedBatch.valid.length - valid.length,
    counterWrites: 0,
  };
  return { valid, failed: parsedBatch.failed, summary };
};

/** What each message adds to each counter item, and the caps each item's write stores (both read in one go each). */
const planTargets = async (
  store: TableStore,
  valid: readonly ParsedMessage[],
  options: RecorderOptions,
  summary: RecordingSummary,
) => {
  const pendingByTarget: PendingByTarget = new Map();
  const targetsOf = new Map<string, string[]>();
  const ancestry = await loadAncestry(
    store,
    valid.flatMap((message) => message.events),
  );
  for (const message of valid) {
    const counted = messageContributions(message.events, ancestry, message.sentAt, options.futureToleranceMs);
    summary.recordedEvents += counted.recordedEvents;
    summary.unknownEntityEvents += counted.unknownEntityEvents;
    summary.futureDatedEvents += counted.futureDatedEvents;
    const contributions = counted.contributions.filter(
      (contribution) => !message.replayTo || message.replayTo.includes(targetName(contribution.target)),
    );
    targetsOf.set(
      message.messageId,
      contributions.map((contribution) => targetName(contribution.target)),
    );
    for (const contribution of contributions) {
      const name = targetName(contribution.target);
      const entry = pendingByTarget.get(name) ?? { target: contribution.target, pending: [] };
      entry.pending.push({ ...message, contribution });
      pendingByTarget.set(name, entry);
    }
  }
  // each write stores the caps it is judged against: the stream tells a crossing from that very update
  const caps = await loadCounterCaps(
    store,
    [...pendingByTarget.values()].map(({ target }) => target),
  );
  return { pendingByTarget, targetsOf, caps };
};

/** One write (or, sharded, one per shard) per counter item; an item whose write failed has no outcome. */
const writeTargets = async (
  ports: RecorderPorts,
  { pendingByTarget, caps }: Pick<Awaited<ReturnType<typeof planTargets>>, 'pendingByTarget' | 'caps'>,
  now: Date,
  options: RecorderOptions,
  summary: RecordingSummary,
) => {
  const outcomes = new Map<string, AppliedCounterWrite | undefined>();
  const invalid = new Map<string, InvalidWrite>();
  await inParallel([...pendingByTarget], WRITE_CONCURRENCY, async ([name, { target, pending }]) => {
    try {
      const applied = await writeTo(ports, target, pending, caps.get(name) ?? [], now, options.autoShard);
      outcomes.set(name, applied);
      if (applied.write) summary.counterWrites++;
    } catch (error) {
      if (error instanceof InvalidRequest) invalid.set(name, { reason: error.message, request: error.request });
      logger.error('a counter write failed; its messages will be delivered again or dead-lettered', {
        target: name,
        ...describeError(error),
      });
      outcomes.set(name, undefined);
    }
  });
  return { outcomes, invalid };
};

/** The messages every item they touch took (or refused for good, dead-lettered), and the duplicates among them. */
const settledMessages = async (
  ports: RecorderPorts,
  valid: readonly ParsedMessage[],
  targetsOf: Map<string, string[]>,
  { outcomes, invalid }: Awaited<ReturnType<typeof writeTargets>>,
  summary: RecordingSummary,
) => {
  const done = new Set<string>();
  for (const message of valid) {
    const touched = targetsOf.get(message.messageId) ?? [];
    if (touched.every((name) => outcomes.get(name) !== undefined)) done.add(message.messageId);
    const skippedEverywhere = touched.every((name) =>
      outcomes.get(name)?.skipped.some((skipped) => skipped.messageId === message.messageId),
    );
    if (touched.length > 0 && skippedEverywhere) summary.duplicateMessages++;
  }
  const refused = await deadLetterInvalidWrites(
    ports.deadLetters,
    valid,
    targetsOf,
    (name) => outcomes.get(name) !== undefined,
    invalid,
  );
  for (const { messageId } of refused) done.add(messageId);
  summary.deadLettered.push(...refused);
  return done;
};

/**
 * The delivery recorder. Every message changes the counters exactly once, whatever the platform does: it is
 * folded into one conditional update per counter item it touches (per shard, for a sharded entity), and each item
 * records, per FIFO message group, the highest sequence it applied, so a message delivered again, a batch retried
 * after a partial failure or regrouped, or a function that timed out after it wrote, is skipped where it already
 * counts. A message is handed back only where some item it touches did not take it (with every later message of
 * its group). Each update also stores the caps it is judged against: the table's stream tells LimitReached from
 * it; the recorder publishes nothing.
 */
export const recordDelivery = async (
  ports: RecorderPorts,
  messages: readonly DeliveryMessage[],
  options: RecorderOptions = {},
): Promise<RecordingResult> => {
  const now = ports.clock.now();
  const { valid, failed, summary } = await acceptedMessages(ports, messages, now);
  if (valid.length === 0) return { failedMessageIds: failed, summary };
  let planned: Awaited<ReturnType<typeof planTargets>>;
  try {
    planned = await planTargets(ports.store, valid, options, summary);
  } catch (error) {
    logger.error('reading for a delivery batch failed; it will be delivered again', describeError(error));
    return { failedMessageIds: [...failed, ...valid.map((message) => message.messageId)], summary };
  }
  const written = await writeTargets(ports, planned, now, options, summary);
  const done = await settledMessages(ports, valid, planned.targetsOf, written, summary);
  emitMetrics(
    {
      RecordedEvents: summary.recordedEvents,
      UnknownEntityEvents: summary.unknownEntityEvents,
      FutureDatedEvents: summary.futureDatedEvents,
      InvalidCounterWrites: written.invalid.size,
      DeadLetteredMessages: summary.deadLettered.length,
      DuplicateMessages: summary.duplicateMessages,
      CounterWrites: summary.counterWrites,
    },
    now,
  );
  return { failedMessageIds: [...failed, ...messagesToRetry(valid, done)], summary };
};
