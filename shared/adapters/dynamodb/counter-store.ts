import type { PendingMessage } from '../../domain/delivery/counter-plan';
import {
  INLINE_MARKERS_PER_ITEM,
  type MarkerPlacement,
  type ShardWriteOptions,
} from '../../domain/delivery/group-markers';
import { planCounterWrite } from '../../domain/delivery/counter-plan';
import { guardsHold, headroomGuards, marksNearCap } from '../../domain/delivery/headroom';
import type { CounterState } from '../../domain/delivery/counter-state';
import { InvalidRequest, WriteConflict } from '../../domain/errors';
import type { Metric, Period } from '../../domain/limits/cap-axes';
import { itemKeyText, type ItemKey } from '../../table/keys';
import { WarmCache } from '../../support/warm-cache';
import type { Item, TableStore } from './table-store';
import type { CapOnCounter } from '../../domain/delivery/limit-reached';
import { counterState } from './counter-item-state';
import { counterWriteRequest, counterWriteTransaction } from './counter-requests';
import { readMarkersOf } from './group-marker-items';
import { epochHolds, type ShardEpoch } from './shard-epoch';
import type { UpdateInput } from './attribute-values';
import type { CounterWrite } from '../../domain/delivery/counter-plan';

/** Races on one item are short: each lost one brings the item back, and the next write is planned from it. */
const MAX_ATTEMPTS = 8;

export interface AppliedCounterWrite {
  write?: CounterWrite;
  /** The attributes the write set, as they are now, when it counted in the write tally (`tallyAt`); else none. */
  after: Item;
  /** Messages the item had already applied. */
  skipped: PendingMessage[];
  /** The write was marked for the stream's trigger as maybe reaching a cap. */
  nearCap?: boolean;
}

/**
 * Message groups one write takes: each adds its marker and its condition to the request, which DynamoDB holds to
 * 4 KB of condition and 300 operators (a batch from SQS FIFO has at most 10 messages; a larger one is split). On an
 * item seen keeping markers beside it, a group guessed beside adds two operators and one item of the transaction
 * (at most 100): such groups go 64 at a time.
 */
const GROUPS_PER_WRITE = 16;
const GROUPS_BESIDE_PER_WRITE = 64;

const byGroupChunks = (pending: readonly PendingMessage[], knownInline?: ReadonlySet<string>): PendingMessage[][] => {
  const groups = [...new Set(pending.map((message) => message.group))];
  if (groups.length <= GROUPS_PER_WRITE) return [[...pending]];
  const lists: [string[], number][] = knownInline
    ? [
        [groups.filter((group) => knownInline.has(group)), GROUPS_PER_WRITE],
        [groups.filter((group) => !knownInline.has(group)), GROUPS_BESIDE_PER_WRITE],
      ]
    : [[groups, GROUPS_PER_WRITE]];
  const chunks: PendingMessage[][] = [];
  for (const [list, size] of lists)
    for (let start = 0; start < list.length; start += size) {
      const chunk = new Set(list.slice(start, start + size));
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

/** How one counter item is written, beyond its messages (`inlineMarkers`: see `MarkerPlacement`). */
export interface CounterItemWrite extends MarkerPlacement {
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

/** Sends a planned write: one UpdateItem, or, when some groups' markers go beside the item, one transaction. */
const sent = async (store: TableStore, request: UpdateInput, write: CounterWrite): Promise<Item> => {
  if (Object.keys(write.beside).length === 0) return (await store.update(request)) ?? {};
  await store.transactWrite(counterWriteTransaction(store.tableName, request, write));
  return {};
};

/** Counter items this container saw keep markers beside them, each with the groups it held itself then. */
const keptBeside = new WarmCache<ReadonlySet<string>>();
const itemName = (store: TableStore, key: ItemKey) => `${store.tableName}|${itemKeyText(key)}`;

/** A write planned from the item as read, at `now`. */
interface PlannedFrom {
  state: CounterState;
  write: CounterWrite;
  now: Date;
  inlineMarkers: number;
}

/** What the container learns from a write planned from the item: whether, and which groups, it keeps inline. */
const rememberPlacement = (store: TableStore, key: ItemKey, { state, write, now, inlineMarkers }: PlannedFrom) => {
  const pruned = new Set(write.prune.map(({ group }) => group));
  const inline = [...Object.keys(state.applied), ...Object.keys(write.sequences)].filter((group) => !pruned.has(group));
  const clock = { now: () => now };
  if (Object.keys(write.beside).length > 0 || inline.length >= inlineMarkers)
    keptBeside.set(itemName(store, key), new Set(inline), clock);
  else keptBeside.forget(itemName(store, key));
};

/** What a write is planned from: the item as read (none: blind), and how a shard's groups are placed. */
interface PlanBasis {
  state?: CounterState;
  shard: ShardWriteOptions;
}

type ReadBasisOptions = Pick<CounterItemWrite, 'epoch' | 'floors'> &
  PlanBasis & { returned?: { item: Item | undefined } };

/**
 * The item and its groups' markers as they are (`returned`: the item an UpdateItem's failure gave back), and, on a
 * shard n ≥ 1, the floors of the groups it holds no marker for. A changed shard count fails it.
 */
const readBasis = async (
  store: TableStore,
  { key, periods, metrics }: CounterItem,
  groups: readonly string[],
  { epoch, floors, shard, returned }: ReadBasisOptions,
): Promise<PlanBasis> => {
  const { item: current, markers } = await readMarkersOf(store, key, groups, returned);
  if (epoch && !epochHolds(epoch, current)) throw new ShardCountChanged();
  const state = { ...counterState(current, periods, metrics), ...markers };
  const unmarked = groups.filter((group) => (markers.applied[group] ?? markers.beside?.[group]) === undefined);
  if (floors && !shard.floors && unmarked.length > 0) return { state, shard: { floors: await floors(unmarked) } };
  return { state, shard: shard.knownInline ? {} : shard };
};

/** Counter items this container saw near a cap: their writes mark themselves for the stream without a guard. */
const nearCap = new WarmCache<true>();

/**
 * Whether a write is to be marked for the stream without proving it reached no cap: every write of a sharded entity
 * (a crossing is judged on the sum of its shards), and one planned from an item seen near a cap (its guards would
 * fail, at a round trip each).
 */
const isNear = (
  store: TableStore,
  key: ItemKey,
  { state, write, options }: { state?: CounterState; write: CounterWrite; options: CounterItemWrite },
): boolean => {
  const { epoch, floors, caps, now } = options;
  if ((epoch && epoch.shards > 1) || floors) return true;
  const clock = now && { now: () => now };
  if (clock && nearCap.get(itemName(store, key), clock)) return true;
  const guards = state && caps ? headroomGuards(write, caps) : [];
  if (!guards || guardsHold(guards, state!)) return false;
  if (clock) nearCap.set(itemName(store, key), true, clock);
  return true;
};

const applyOnce = async (
  store: TableStore,
  item: CounterItem,
  pending: readonly PendingMessage[],
  options: CounterItemWrite & { knownInline?: ReadonlySet<string> },
): Promise<AppliedCounterWrite> => {
  const { now, caps, epoch, tallyAt, floors, knownInline, inlineMarkers = INLINE_MARKERS_PER_ITEM } = options;
  const { key } = item;
  const groups = [...new Set(pending.map((message) => message.group))];
  let basis: PlanBasis = { shard: floors ? { unread: 'presentBelow' } : knownInline ? { knownInline } : {} };
  // a blind write of messages delivered before would most likely be refused, at the write units of its items
  if (pending.some((message) => message.redelivered))
    basis = await readBasis(store, item, groups, { epoch, floors, ...basis });
  for (let attempt = 1; ; attempt++) {
    const { state, shard } = basis;
    const write = planCounterWrite(state, pending, item, { now, ...shard, inlineMarkers });
    if (!write) return { after: {}, skipped: [...pending] };
    const near = isNear(store, key, { ...(state ? { state } : {}), write, options });
    const request = counterWriteRequest(key, write, caps, {
      ...(epoch ? { epoch } : {}),
      ...(tallyAt !== undefined ? { tallyAt } : {}),
      near,
    });
    try {
      const after = await sent(store, request, write);
      if (state && now) rememberPlacement(store, key, { state, write, now, inlineMarkers });
      return { write, after, skipped: write.skipped, nearCap: marksNearCap(write, caps, near) };
    } catch (error) {
      if (error instanceof InvalidRequest) error.request = request;
      if (!(error instanceof WriteConflict) || attempt >= MAX_ATTEMPTS) throw error;
      // an UpdateItem's failure returns the item; a cancelled transaction's is read with the markers
      const returned = Object.keys(write.beside).length === 0 ? { returned: { item: error.current } } : {};
      basis = await readBasis(store, item, groups, { epoch, floors, ...basis, ...returned });
    }
  }
};

/**
 * Applies pending messages to one counter item exactly once: a first write without a read (from a read when some
 * message was delivered before), then, for as long as a condition fails, a write planned from the item DynamoDB
 * returned with the failure. Messages of more groups than one request holds are written in several requests, whole
 * groups each; the answer is the last write's.
 */
export const applyToCounterItem = async (
  store: TableStore,
  item: CounterItem,
  pending: readonly PendingMessage[],
  options: CounterItemWrite = {},
): Promise<AppliedCounterWrite> => {
  let applied: AppliedCounterWrite = { after: {}, skipped: [] };
  const skipped: PendingMessage[] = [];
  const { now, floors } = options;
  // a shard n ≥ 1 reads its groups' floors once it fails: its first write never guesses
  const knownInline = now && !floors ? keptBeside.get(itemName(store, item.key), { now: () => now }) : undefined;
  const chunks = byGroupChunks(pending, knownInline);
  for (const [index, chunk] of chunks.entries()) {
    try {
      const result = await applyOnce(store, item, chunk, { ...options, ...(knownInline ? { knownInline } : {}) });
      skipped.push(...result.skipped);
      if (result.write) applied = result;
    } catch (error) {
      if (!(error instanceof ShardCountChanged)) throw error;
      throw new ShardCountChanged({ ...applied, skipped }, chunks.slice(index).flat());
    }
  }
  return { ...applied, skipped };
};
