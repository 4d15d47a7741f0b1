import type { Metric, Period } from '../../domain/limits/cap-axes';
import { METRICS, PERIODS } from '../../domain/limits/cap-axes';
import type { Slot } from '../../domain/delivery/counter-state';

/**
 * The attribute names of a counter item. They are short because DynamoDB bills a write by the item's size, names
 * included, and a hot entity's counter item is written by every delivery batch: two letters a counter (period,
 * then metric; the period's letter in capitals for the previous period's), `~` and the message group for a group's
 * marker.
 */
const PERIOD_LETTERS: Record<Period, string> = { daily: 'd', weekly: 'w', monthly: 'm', total: 't' };
const METRIC_LETTERS: Record<Metric, string> = {
  impressions: 'i',
  clicks: 'c',
  conversions: 'v',
  opportunities: 'o',
  budget: 'b',
  requests: 'r',
};

const COUNTER_ATTRIBUTES = Object.fromEntries(
  PERIODS.map((period) => [
    period,
    Object.fromEntries(METRICS.map((metric) => [metric, `${PERIOD_LETTERS[period]}${METRIC_LETTERS[metric]}`])),
  ]),
) as Record<Period, Record<Metric, string>>;

const inSlot = (name: string, slot: Slot): string =>
  slot === 'current' ? name : name[0]!.toUpperCase() + name.slice(1);

/**
 * `di` (daily impressions), `tb` (total budget): a counter's attribute, and its cap's key in `CAPS_ATTRIBUTE`; of the
 * previous period, `Di`, `Wc`, `Mb` (the total has no previous period).
 */
export const counterAttribute = (period: Period, metric: Metric, slot: Slot = 'current'): string =>
  inSlot(COUNTER_ATTRIBUTES[period][metric], slot);

/** `dk`, `wk`, `mk`: the period the item's counters of a period count in (the total has none); `Dk`… the previous. */
export const keyAttribute = (period: Period, slot: Slot = 'current'): string =>
  inSlot(`${PERIOD_LETTERS[period]}k`, slot);

/** A message group's marker: `~<group>`. */
export const MARKER_PREFIX = '~';
export const markerAttribute = (group: string): string => `${MARKER_PREFIX}${group}`;

/** How many markers the item holds itself (exact: every write that adds or removes one sets it, as read). */
export const INLINE_COUNT_ATTRIBUTE = 'gn';
/** The day (since 1970) of the item's last write that put a group's marker beside it: only ever raised. */
export const OVERFLOW_DAY_ATTRIBUTE = 'ov';
/** A marker item's marker (the bytes of `marker-bytes.ts`); the item expires by the table's TTL attribute. */
export const BESIDE_MARKER_ATTRIBUTE = 'm';

/**
 * The no-conversion state: the last conversion's (or quiet-time reset's) instant (ms), the impressions dated since,
 * and the first impression's instant (ms), when the quiet time began while no conversion came.
 */
export const QUIET_SINCE_ATTRIBUTE = 'qs';
export const QUIET_IMPRESSIONS_ATTRIBUTE = 'qi';
export const FIRST_IMPRESSION_ATTRIBUTE = 'qf';

/** The caps the item's last delivery write was judged against (counter attribute → cap), for the stream. */
export const CAPS_ATTRIBUTE = 'cp';
export { NEAR_CAP_ATTRIBUTE } from '../../table/stream-trigger';
/** On shard 0 (`COUNTERS`) of a sharded entity: how many shards it has (absent: 1). */
export const SHARDS_ATTRIBUTE = 'shards';
/** On shard 0 of an entity whose shard count was raised: the count it was first sharded into (absent: `shards`). */
export const SHARD_BASE_ATTRIBUTE = 'sb';
/** On shard n ≥ 1: the shard count it is written under, set by every count change (absent: never raised). */
export const SHARD_EPOCH_ATTRIBUTE = 'sc';
/** On shard 0 of an unsharded advertiser, with automatic sharding on: its writes since `tallySince` (ms). */
export const TALLY_ATTRIBUTE = 'writeTally';
export const TALLY_SINCE_ATTRIBUTE = 'tallySince';
/** When a reset last zeroed counters of the item (ms): a crossing after it is a new one. */
export const RESET_AT_ATTRIBUTE = 'resetAt';
