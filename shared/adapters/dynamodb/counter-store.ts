import type { PendingMessage, ShardWriteOptions } from '../../domain/delivery/counter-plan';
import { planCounterWrite } from '../../domain/delivery/counter-plan';
import type { CounterState } from '../../domain/delivery/counter-state';
import { InvalidRequest, WriteConflict } from '../../domain/errors';
import type { Metric, Period } from '../../domain/limits/cap-axes';
import type { ItemKey } from '../../table/keys';
import type { Item, TableStore } from './table-store';
import type { CapOnCounter } from '../../domain/delivery/limit-reached';
import { appliedMarkers, counterState } from './counter-item-state';
import { counterWriteRequest } from './counter-requests';
import { epochHolds, type ShardEpoch } from './shard-epoch';
import type { CounterWrite } from '../../domain/delivery/counter-plan';

/** Races on one item are short: each lost one brings the item back, and the next write is planned from it. */
const MAX_ATTEMPTS = 8;

export interface AppliedCounterWrite {
  write?: CounterWrite;
  /** The attributes the write set, as they are now. */
  after: Item;
  /** Messages the item had already applied. */
  skipped: PendingMessage[];
}

/**
 * Message groups one write takes: each adds its marker and its condition to the request, which DynamoDB holds to
 * 4 KB of condition (a batch from SQS FIFO has at most 10 messages; a larger one is split).
 */
const GROUPS_PER_WRITE = 16;

const byGroupChunks = (pending: readonly PendingMessage[]): PendingMessage[][] => {
  const groups = [...new Set(pending.map((message) => message.group))];
  if (groups.length <= GROUPS_PER_WRITE) return [[...pending]];
  const chunks: PendingMessage[][] = [];
  for (let start = 0; start < groups.length; start += GROUPS_PER_WRITE) {
    const chunk = new Set(groups.slice(start, start + GROUPS_PER_WRITE));
    chunks.push(pending.filter((message) => chunk.has(message.group)));
  }
  return chunks;
};

/**
 * The entity's shard count is no longer the one the write routed its groups with: its messages are to be routed
 * again. `done` is what the item's earlier requests of the same call applied, `left` the messages not applied.
 */
export class ShardCountChanged extends Error {
  constructor(
    readonly done: AppliedCounterWrite = { after: {}, skipped: [] },
    readonly left: readonly PendingMessage[] = [],
  ) {
    super("The entity's shard count changed");
    this.name = 'ShardCountChanged';
  }
}

/** A counter item: its key and the counters it holds. */
export interface CounterItem {
  key: ItemKey;
  periods: readonly Period[];
  metrics: readonly Metric[];
}

/** How one counter item is written, beyond its messages. */
export interface CounterItemWrite {
  now?: Date;
  /** The caps the write is judged against, stored with it (see `counterWriteRequest`). */
  caps?: readonly CapOnCounter[];
  /** An entity's counter item: the shard count the write routed with; another fails it with `ShardCountChanged`. */
  epoch?: ShardEpoch;
  /** Counts the write in the item's write tally, at this instant (ms). */
  tallyAt?: number;
  /**
   * A shard n ≥ 1: reads the highest marker each of the groups has on any shard of the entity. Its first write
   * requires each group's marker on the shard; a group new there makes it fail, and the floors are read then.
   */
  floors?: (groups: readonly string[]) => Promise<Readonly<Record<string, string>>>;
}

const applyOnce = async (
  store: TableStore,
  { key, periods, metrics }: CounterItem,
  pending: readonly PendingMessage[],
  options: CounterItemWrite,
): Promise<AppliedCounterWrite> => {
  const { now, caps, epoch, tallyAt, floors } = options;
  let state: CounterState | undefined;
  let shard: ShardWriteOptions = floors ? { unread: 'presentBelow' } : {};
  for (let attempt = 1; ; attempt++) {
    const write = planCounterWrite(state, pending, periods, metrics, now, shard);
    if (!write) return { after: {}, skipped: [...pending] };
    const request = counterWriteRequest(key, write, caps, {
      ...(epoch ? { epoch } : {}),
      ...(tallyAt !== undefined ? { tallyAt } : {}),
    });
    try {
      return { write, after: (await store.update(request)) ?? {}, skipped: write.skipped };
    } catch (error) {
      if (error instanceof InvalidRequest) error.request = request;
      if (!(error instanceof WriteConflict) || attempt >= MAX_ATTEMPTS) throw error;
      if (epoch && !epochHolds(epoch, error.current)) throw new ShardCountChanged();
      state = { ...counterState(error.current, periods, metrics), applied: appliedMarkers(error.current) };
      const applied = state.applied;
      const unmarked = [...new Set(pending.map((message) => message.group))].filter((group) => !(group in applied));
      if (floors && !shard.floors && unmarked.length > 0) shard = { floors: await floors(unmarked) };
    }
  }
};

/**
 * Applies pending messages to one counter item exactly once: a first write without a read, then, for as long as a
 * condition fails, a write planned from the item DynamoDB returned with the failure. Messages of more groups than
 * one request holds are written in several requests, whole groups each; the answer is the last write's.
 */
export const applyToCounterItem = async (
  store: TableStore,
  item: CounterItem,
  pending: readonly PendingMessage[],
  options: CounterItemWrite = {},
): Promise<AppliedCounterWrite> => {
  let applied: AppliedCounterWrite = { after: {}, skipped: [] };
  const skipped: PendingMessage[] = [];
  const chunks = byGroupChunks(pending);
  for (const [index, chunk] of chunks.entries()) {
    try {
      const result = await applyOnce(store, item, chunk, options);
      skipped.push(...result.skipped);
      if (result.write) applied = result;
    } catch (error) {
      if (!(error instanceof ShardCountChanged)) throw error;
      throw new ShardCountChanged({ ...applied, skipped }, chunks.slice(index).flat());
    }
  }
  return { ...applied, skipped };
};
