import { restartTallyRequest, type AppliedEntityWrite } from '../adapters/dynamodb/counter-shards-store';
import { setShardCount } from '../adapters/dynamodb/shard-count-change';
import { rememberShardLayout } from '../adapters/dynamodb/shard-layouts';
import type { TableStore } from '../adapters/dynamodb/table-store';
import { parseAutoSharding, tallyDecision, type AutoSharding } from '../domain/delivery/counter-shards';
import { WriteConflict } from '../domain/errors';
import type { EntityType } from '../domain/levels';
import { describeError, logger } from '../observability/logger';
import type { Clock } from '../ports/clock';

/** `AUTO_SHARD_WRITES_PER_SECOND` and `AUTO_SHARD_COUNT` (both, or neither: automatic sharding off). */
export const autoShardingFromEnvironment = (env: NodeJS.ProcessEnv): AutoSharding | undefined =>
  parseAutoSharding(
    ['AUTO_SHARD_WRITES_PER_SECOND', env.AUTO_SHARD_WRITES_PER_SECOND],
    ['AUTO_SHARD_COUNT', env.AUTO_SHARD_COUNT],
  );

/** Automatic sharding applies to advertisers: the entity every batch of their events writes. */
export const tallies = (type: EntityType, auto: AutoSharding | undefined): boolean =>
  auto !== undefined && type === 'ADVERTISER';

/**
 * After a write counted in an advertiser's write tally: shards the advertiser when its rate is over the limit, or
 * starts a new window. Its messages are applied already: a failure here is logged, and the next write tries again.
 */
export const followTally = async (
  { store, clock }: { store: TableStore; clock: Clock },
  target: { type: EntityType; id: number },
  applied: AppliedEntityWrite,
  auto: AutoSharding,
): Promise<void> => {
  if (!applied.tally) return;
  const now = clock.now().getTime();
  const decision = tallyDecision(applied.tally, now, auto);
  try {
    if (decision === 'restart')
      await store.update(restartTallyRequest(target.type, target.id, applied.tally.since, now));
    if (decision !== 'shard') return;
    // the same count change as an operator's: one transaction marking every shard with the count
    const { from, shards } = await setShardCount(store, target.type, target.id, auto.shards);
    if (from !== 1) return; // sharded meanwhile, by an operator or another container: its count stands
    rememberShardLayout(store, { type: target.type, id: target.id }, { shards, base: shards }, clock);
    logger.info('counters sharded automatically', { ...target, shards, tally: applied.tally });
  } catch (error) {
    if (!(error instanceof WriteConflict))
      logger.warn('following a write tally failed; the next write tries again', describeError(error));
  }
};
