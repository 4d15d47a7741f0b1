import type { Period } from '../limits/cap-axes';
import { add, countersOf, latestTwo, quietTimeStart, slotsOf, type CounterState, type Tally } from './counter-state';

/**
 * An entity's counters may be sharded: shard 0 is the `COUNTERS` item, shard n ≥ 1 `COUNTERS#<n>`. The shard
 * count only rises (1 → N, then N → M), in one transaction that also marks every shard with the new count, so that a
 * recorder still routing with an older count is caught by any shard's condition.
 */
export const MIN_SHARDS = 2;
/**
 * DELETE limits.do clears every shard with the record and its history entry in one transaction (at most 100
 * items), a read asks for entity, limit, history head and every shard in one BatchGetItem (at most 100 keys), and a
 * count change writes every shard in one transaction (at most 100 items): 96 shards keep all three whole.
 */
export const MAX_SHARDS = 96;

export const isShardCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= MIN_SHARDS && value <= MAX_SHARDS;

/** The shard count an item of shard 0 holds: absent or anything else, 1. */
export const shardCountOf = (value: unknown): number => {
  const count = Number(value === undefined || value === null ? NaN : String(value));
  return isShardCount(count) ? count : 1;
};

/** 32-bit FNV-1a of the text's UTF-16 code units: stable across runtimes and releases. */
const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
};

/** murmur3's finaliser: spreads a group's hash and an added shard into an independent draw. */
const draw = (hash: number, shard: number): number => {
  let mixed = (hash ^ Math.imul(shard + 1, 0x9e3779b9)) >>> 0;
  mixed = Math.imul(mixed ^ (mixed >>> 16), 0x85ebca6b);
  mixed = Math.imul(mixed ^ (mixed >>> 13), 0xc2b2ae35);
  return (mixed ^ (mixed >>> 16)) >>> 0;
};

/**
 * How an entity's groups are spread: over `shards` shards, the entity having first been sharded into `base` (the
 * count set when it was unsharded; equal to `shards` until the count is raised).
 */
export interface ShardLayout {
  shards: number;
  base: number;
}

export const UNSHARDED: ShardLayout = { shards: 1, base: 1 };

/**
 * The shard a message group writes: `fnv1a32(group) mod base`, then, for each shard added by a raise (base, base + 1,
 * …), a move to it with probability 1 / (its number + 1), as jump consistent hashing does. So the groups stay evenly
 * spread, a raise moves a group only onto a shard it adds, and a group never comes back to a shard it left (nor
 * moves onto shard 0): its marker on its shard, when there is one, is the latest it has on any shard. Always the same
 * for the same group and layout. Pure.
 */
export const shardOfGroup = (group: string, shards: number, base = shards): number => {
  if (shards <= 1) return 0;
  const hash = fnv1a(group);
  let shard = hash % Math.min(base, shards);
  for (let added = base; added < shards; added++) if (draw(hash, added) % (added + 1) === 0) shard = added;
  return shard;
};

/** What a request to set an entity's count to `shards` does from `current`: nothing, a refusal, or a raise. Pure. */
export const shardCountChange = (
  current: ShardLayout,
  shards: number,
): { kind: 'unchanged' } | { kind: 'lower' } | { kind: 'raise'; layout: ShardLayout } =>
  shards === current.shards
    ? { kind: 'unchanged' }
    : shards < current.shards
      ? { kind: 'lower' }
      : { kind: 'raise', layout: { shards, base: current.shards === 1 ? shards : current.base } };

/**
 * The shards' counters as one: per period, the two latest periods any shard holds (in either slot: each shard may
 * have moved on or not), each with the sum of the counters the shards hold of it (a shard that holds neither has
 * nothing of them; one that dropped a period holds two later ones, so the sum drops it too). The no-conversion state
 * is exact when one shard holds it. Across shards it is bounded, never in the entity's favour: the quiet time
 * begins at the earliest shard's (no later than the last conversion, or the first impression) and the impressions
 * are summed (a shard whose last conversion is older also counts impressions before a later one), so a cap on
 * either is reached no later than on one item. What each shard applied is not merged (it is per shard). Pure.
 */
export const sumShardStates = (states: readonly CounterState[], periods: readonly Period[]): CounterState => {
  if (states.length === 1) return states[0]!;
  const summed: CounterState = { keys: {}, counters: {}, applied: {}, impressionsSinceConversion: 0n };
  for (const period of periods) {
    const [current, previous] = latestTwo(states.flatMap((state) => slotsOf(state, period).map(({ key }) => key)));
    if (current === undefined) continue;
    const sumOf = (key: string): Tally => {
      const tally: Tally = {};
      for (const state of states) add(tally, countersOf(state, period, key) ?? {});
      return tally;
    };
    summed.keys[period] = current;
    const tally = sumOf(current);
    if (Object.keys(tally).length > 0) summed.counters[period] = tally;
    if (previous !== undefined) (summed.previous ??= {})[period] = { key: previous, tally: sumOf(previous) };
  }
  for (const state of states) {
    const quietSince = quietTimeStart(state);
    if (quietSince !== undefined) summed.quietSince = Math.min(summed.quietSince ?? quietSince, quietSince);
    summed.impressionsSinceConversion += state.impressionsSinceConversion;
  }
  return summed;
};

/** Automatic sharding: an advertiser whose counters take more writes a second than this gets `shards` shards. */
export interface AutoSharding {
  writesPerSecond: number;
  shards: number;
}

/**
 * Automatic sharding from its two settings, as given (`rateName`, `countName` name them in the refusal): both, a
 * whole rate from 1 and a shard count, or neither (off). A refusal throws, for a deploy or a cold start to stop on.
 */
export const parseAutoSharding = (
  [rateName, rate]: readonly [string, unknown],
  [countName, count]: readonly [string, unknown],
): AutoSharding | undefined => {
  if ((rate === undefined || rate === '') && (count === undefined || count === '')) return undefined;
  const writesPerSecond = Number(rate);
  const shards = Number(count);
  if (!/^\d{1,6}$/.test(String(rate)) || writesPerSecond < 1 || !isShardCount(shards))
    throw new Error(
      `${rateName} (a whole number from 1) and ${countName} (${MIN_SHARDS} to ${MAX_SHARDS}) go together, not "${rate}" and "${count}"`,
    );
  return { writesPerSecond, shards };
};

/** Shard 0 of an unsharded advertiser tallies its writes over a window of this length at least. */
export const TALLY_WINDOW_MS = 10_000;

/**
 * What one write's tally (`writes` since `since`, ms) says: shard the advertiser (its rate is over the limit, or the
 * window's allowance is spent early), start a new window (a full window under the limit), or wait. Pure.
 */
export const tallyDecision = (
  tally: { writes: number; since: number },
  now: number,
  auto: AutoSharding,
): 'shard' | 'restart' | 'wait' => {
  const elapsed = now - tally.since;
  if (tally.writes > (auto.writesPerSecond * Math.max(elapsed, TALLY_WINDOW_MS)) / 1000) return 'shard';
  return elapsed >= TALLY_WINDOW_MS ? 'restart' : 'wait';
};
