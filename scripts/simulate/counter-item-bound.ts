import { NumberValue, storedItem } from '../../shared/adapters/dynamodb/attribute-values';
import {
  CAPS_ATTRIBUTE,
  counterAttribute,
  FIRST_IMPRESSION_ATTRIBUTE,
  INLINE_COUNT_ATTRIBUTE,
  keyAttribute,
  markerAttribute,
  OVERFLOW_DAY_ATTRIBUTE,
  QUIET_IMPRESSIONS_ATTRIBUTE,
  QUIET_SINCE_ATTRIBUTE,
  RESET_AT_ATTRIBUTE,
  SHARD_BASE_ATTRIBUTE,
  SHARD_EPOCH_ATTRIBUTE,
  SHARDS_ATTRIBUTE,
  TALLY_ATTRIBUTE,
  TALLY_SINCE_ATTRIBUTE,
} from '../../shared/adapters/dynamodb/counter-attributes';
import { markerBytes } from '../../shared/adapters/dynamodb/marker-bytes';
import { INLINE_MARKERS_PER_ITEM, markerText } from '../../shared/domain/delivery/group-markers';
import { MAX_SHARDS } from '../../shared/domain/delivery/counter-shards';
import { METRICS, PERIODS } from '../../shared/domain/limits/cap-axes';
import { itemSize } from './item-size';

/** The largest number DynamoDB stores: 38 significant digits. */
const LARGEST_NUMBER = NumberValue.from('9'.repeat(38));
/** The last instant of the year 9999 (ms) and its day: no accepted event or clock reading is later. */
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');
const LAST_DAY = Math.floor(LAST_INSTANT / 86_400_000);
/** An SQS FIFO sequence number of 40 digits (the most `isSequenceNumber` accepts), and a group id of 128. */
const LARGEST_SEQUENCE = '9'.repeat(40);
const LONGEST_GROUP = (index: number) => `${index}`.padEnd(128, 'g');

/**
 * The largest counter item the recorder, the flush and the limit writes can leave: every attribute the layout
 * (docs/exactly-once.md, the counter item's layout) gives it, each at its largest value, and the most markers the item
 * holds itself (`INLINE_MARKERS_PER_ITEM`) of the longest groups and sequences. Its key is the longest an entity's
 * counter item can have (an advertiser of a 16-digit id; an action's counters of a 16-digit action id).
 */
export const largestCounterItem = (): Record<string, unknown> => {
  const item: Record<string, unknown> = { PK: `ADVERTISER#${'9'.repeat(16)}`, SK: `ACTCTR#${'9'.repeat(16)}` };
  const caps: Record<string, number> = {};
  for (const period of PERIODS)
    for (const metric of METRICS) {
      item[counterAttribute(period, metric)] = LARGEST_NUMBER;
      // the previous period's counters (the total has none)
      if (period !== 'total') item[counterAttribute(period, metric, 'previous')] = LARGEST_NUMBER;
      // the largest cap: a budget of 9,999,999,999.999
      caps[counterAttribute(period, metric)] = 9_999_999_999.999;
    }
  Object.assign(item, {
    [keyAttribute('daily')]: 'D#9999-12-31',
    [keyAttribute('weekly')]: 'W#9999-W52',
    [keyAttribute('monthly')]: 'M#9999-12',
    [keyAttribute('daily', 'previous')]: 'D#9999-12-30',
    [keyAttribute('weekly', 'previous')]: 'W#9999-W51',
    [keyAttribute('monthly', 'previous')]: 'M#9999-11',
    [QUIET_SINCE_ATTRIBUTE]: LAST_INSTANT,
    [QUIET_IMPRESSIONS_ATTRIBUTE]: LARGEST_NUMBER,
    [FIRST_IMPRESSION_ATTRIBUTE]: LAST_INSTANT,
    [CAPS_ATTRIBUTE]: caps,
    [RESET_AT_ATTRIBUTE]: LAST_INSTANT,
    [SHARDS_ATTRIBUTE]: MAX_SHARDS,
    [SHARD_BASE_ATTRIBUTE]: MAX_SHARDS,
    [SHARD_EPOCH_ATTRIBUTE]: MAX_SHARDS,
    [TALLY_ATTRIBUTE]: LARGEST_NUMBER,
    [TALLY_SINCE_ATTRIBUTE]: LAST_INSTANT,
    [INLINE_COUNT_ATTRIBUTE]: INLINE_MARKERS_PER_ITEM,
    [OVERFLOW_DAY_ATTRIBUTE]: LAST_DAY,
  });
  for (let index = 0; index < INLINE_MARKERS_PER_ITEM; index++)
    item[markerAttribute(LONGEST_GROUP(index))] = markerBytes(markerText(LARGEST_SEQUENCE, new Date(LAST_INSTANT)));
  return item;
};

/** The bound on a counter item's size (bytes, as DynamoDB counts them) that docs/exactly-once.md states. */
export const COUNTER_ITEM_BOUND = itemSize(storedItem(largestCounterItem()));
