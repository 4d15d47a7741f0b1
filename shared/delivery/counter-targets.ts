import { applyToCounterItem, type AppliedCounterWrite } from '../adapters/dynamodb/counter-store';
import { applyToEntityCounters } from '../adapters/dynamodb/counter-shards-store';
import type { AutoSharding } from '../domain/delivery/counter-shards';
import { followTally, tallies } from './auto-sharding';
import { loadAncestry, loadCounterCaps } from '../adapters/dynamodb/delivery-reads';
import { ACTION_METRICS, ACTION_PERIODS } from '../domain/limits/cap-axes';
import type { TableStore } from '../adapters/dynamodb/table-store';
import { inParallel } from '../support/concurrency';
import { messageContributions, targetName, type CounterTarget } from '../domain/delivery/contributions';
import type { PendingMessage } from '../domain/delivery/counter-plan';
import type { CapOnCounter } from '../domain/delivery/limit-reached';
import { describeError, logger } from '../observability/logger';
import { InvalidRequest } from '../domain/errors';
import type { InvalidWrite } from './invalid-writes';
import { actionCountersKey } from '../table/keys';
import type { ParsedMessage } from './accepted-messages';
import type { RecorderOptions, RecorderPorts, RecordingSummary } from './recorder-types';

const WRITE_CONCURRENCY = 16;

/** When a batch's counter items are written, and where the writes are counted. */
export interface TargetWrites {
  now: Date;
  autoShard?: AutoSharding;
  inlineMarkers?: number;
  summary: RecordingSummary;
}

const writeTo = async (
  { store, clock }: RecorderPorts,
  { target, pending }: { target: CounterTarget; pending: readonly PendingMessage[] },
  caps: readonly CapOnCounter[],
  { now, autoShard: auto, inlineMarkers }: Pick<TargetWrites, 'now' | 'autoShard' | 'inlineMarkers'>,
): Promise<AppliedCounterWrite> => {
  const placement = inlineMarkers !== undefined ? { inlineMarkers } : {};
  if (target.actionId !== undefined)
    return applyToCounterItem(
      store,
      {
        key: actionCountersKey(target.type, target.id, target.actionId),
        periods: ACTION_PERIODS,
        metrics: ACTION_METRICS,
      },
      pending,
      { now, caps, ...placement },
    );
  const tallyAt = tallies(target.type, auto) ? { tallyAt: now.getTime() } : {};
  const applied = await applyToEntityCounters(store, target, pending, {
    clock,
    now,
    caps,
    ...tallyAt,
    ...placement,
  });
  if (auto) await followTally({ store, clock }, target, applied, auto);
  return applied;
};

type PendingByTarget = Map<string, { target: CounterTarget; pending: PendingMessage[] }>;

/** What each message adds to each counter item, and the caps each item's write stores (both read in one go each). */
export const planTargets = async (
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
export const writeTargets = async (
  ports: RecorderPorts,
  { pendingByTarget, caps }: Pick<Awaited<ReturnType<typeof planTargets>>, 'pendingByTarget' | 'caps'>,
  writes: TargetWrites,
) => {
  const outcomes = new Map<string, AppliedCounterWrite | undefined>();
  const invalid = new Map<string, InvalidWrite>();
  await inParallel([...pendingByTarget], WRITE_CONCURRENCY, async ([name, { target, pending }]) => {
    try {
      const applied = await writeTo(ports, { target, pending }, caps.get(name) ?? [], writes);
      outcomes.set(name, applied);
      if (applied.write) writes.summary.counterWrites++;
      if (applied.write && applied.nearCap) writes.summary.nearCapWrites++;
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
