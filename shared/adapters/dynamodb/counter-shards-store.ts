import type { PendingMessage } from '../../domain/delivery/counter-plan';
import { shardOfGroup, type ShardLayout } from '../../domain/delivery/counter-shards';
import type { EntityType } from '../../domain/levels';
import { METRICS, PERIODS } from '../../domain/limits/cap-axes';
import type { Clock } from '../../ports/clock';
import { counterShardKey, countersKey } from '../../table/keys';
import type { UpdateInput } from './attribute-values';
import {
  applyToCounterItem,
  ShardCountChanged,
  type AppliedCounterWrite,
  type CounterItemWrite,
} from './counter-store';
import { highestGroupMarkers } from './group-marker-items';
import { TALLY_ATTRIBUTE, TALLY_SINCE_ATTRIBUTE } from './counter-attributes';
import { counterShardKeys, knownShardLayout, readShardLayout, rememberShardLayout } from './shard-layouts';
import type { Item, TableStore } from './table-store';
import { equals, UpdateBuilder } from './expressions';

const combined = (results: readonly AppliedCounterWrite[]): AppliedCounterWrite => ({
  ...(results.findLast((result) => result.write) ?? { after: {} }),
  skipped: results.flatMap((result) => result.skipped),
});

/** The results of the shards' writes; those whose count changed are collected into one `ShardCountChanged`. */
const settledShards = (settled: readonly PromiseSettledResult<AppliedCounterWrite>[]): AppliedCounterWrite => {
  const failures = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
  const other = failures.find((failure) => !(failure instanceof ShardCountChanged));
  if (other !== undefined) throw other;
  const done = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const changed = failures as ShardCountChanged[];
  if (changed.length === 0) return combined(done);
  throw new ShardCountChanged(
    combined([...done, ...changed.map((failure) => failure.done)]),
    changed.flatMap((failure) => failure.left),
  );
};

/**
 * A sharded entity's messages, each group's to its shard, each write held to the layout's count. A shard n ≥ 1
 * takes as floors the highest markers its groups have on any shard, on the item or beside it (one strongly
 * consistent batch read of every shard and the groups' marker items, when a group is new on the shard): a message applied on another shard, before the entity was sharded or
 * before its count was raised, is not applied again. No other shard takes a group's messages meanwhile: a writer
 * routing with an older count fails its shard's condition, and a group never returns to a shard it left.
 */
const applyToShards = async (
  store: TableStore,
  { type, id, layout }: { type: EntityType; id: number; layout: ShardLayout },
  pending: readonly PendingMessage[],
  options: CounterItemWrite,
): Promise<AppliedCounterWrite> => {
  const byShard = new Map<number, PendingMessage[]>();
  for (const message of pending) {
    const shard = shardOfGroup(message.group, layout.shards, layout.base);
    byShard.set(shard, [...(byShard.get(shard) ?? []), message]);
  }
  const floors = (groups: readonly string[]) =>
    highestGroupMarkers(store, counterShardKeys(type, id, layout.shards), groups);
  const unraised = layout.base === layout.shards;
  const settled = await Promise.allSettled(
    [...byShard].map(([shard, messages]) =>
      applyToCounterItem(
        store,
        { key: counterShardKey(type, id, shard), periods: PERIODS, metrics: METRICS },
        messages,
        { ...options, epoch: { shard, shards: layout.shards, unraised }, ...(shard === 0 ? {} : { floors }) },
      ),
    ),
  );
  return settledShards(settled);
};

/** An entity's counters as written: the write's answer, and shard 0's write tally when the write counted in it. */
export type AppliedEntityWrite = AppliedCounterWrite & { tally?: { writes: number; since: number } };

const tallyOf = (after: Item): AppliedEntityWrite['tally'] => {
  const writes = Number(after[TALLY_ATTRIBUTE]);
  const since = Number(after[TALLY_SINCE_ATTRIBUTE]);
  return Number.isFinite(writes) && Number.isFinite(since) ? { writes, since } : undefined;
};

/** An unsharded entity's counters: shard 0, on condition that the entity has no shards, tallied when asked. */
const applyUnsharded = async (
  store: TableStore,
  { type, id }: { type: EntityType; id: number },
  pending: readonly PendingMessage[],
  options: Omit<CounterItemWrite, 'epoch' | 'floors'>,
): Promise<AppliedEntityWrite> => {
  const item = { key: countersKey(type, id), periods: PERIODS, metrics: METRICS };
  const epoch = { shard: 0, shards: 1, unraised: true };
  const applied = await applyToCounterItem(store, item, pending, { ...options, epoch });
  const tally = options.tallyAt !== undefined && applied.write ? tallyOf(applied.after) : undefined;
  return tally ? { ...applied, tally } : applied;
};

/** How many times a batch's writes to one entity follow a changed shard count (one change costs one). */
const MAX_LAYOUTS = 4;

/**
 * Applies pending messages to an entity's counters exactly once, shard by shard, routed with the shard layout this
 * container knows (unsharded: one item, counted in its write tally when `tallyAt` is given). A write that finds the
 * count changed reads shard 0's layout again, and the messages not applied yet are routed with it.
 */
export const applyToEntityCounters = async (
  store: TableStore,
  { type, id }: { type: EntityType; id: number },
  pending: readonly PendingMessage[],
  { clock, ...options }: Omit<CounterItemWrite, 'epoch' | 'floors'> & { clock: Clock },
): Promise<AppliedEntityWrite> => {
  // only an unsharded entity's one item tallies its writes
  const write: CounterItemWrite = { ...options };
  delete write.tallyAt;
  const done: AppliedCounterWrite[] = [];
  let left = pending;
  let layout = knownShardLayout(store, type, id, clock);
  for (let attempt = 1; ; attempt++) {
    try {
      const applied =
        layout.shards > 1
          ? await applyToShards(store, { type, id, layout }, left, write)
          : await applyUnsharded(store, { type, id }, left, options);
      return done.length === 0 ? applied : combined([...done, applied]);
    } catch (error) {
      if (!(error instanceof ShardCountChanged) || attempt >= MAX_LAYOUTS) throw error;
      done.push(error.done);
      left = error.left;
      layout = await readShardLayout(store, type, id);
      rememberShardLayout(store, { type, id }, layout, clock);
    }
  }
};

/** Starts shard 0's write tally again at `now`, if it still began at `since` (another writer may have). Pure. */
export const restartTallyRequest = (type: EntityType, id: number, since: number, now: number): UpdateInput => {
  const update = new UpdateBuilder()
    .set(TALLY_ATTRIBUTE, 0)
    .set(TALLY_SINCE_ATTRIBUTE, now)
    .require(equals(TALLY_SINCE_ATTRIBUTE, since));
  return { Key: countersKey(type, id), ...update.build() };
};
