import type { UpdateInput } from './attribute-values';
import {
  allOf,
  anyOf,
  atMost,
  attributeAbsent,
  attributeExists,
  below,
  equals,
  UpdateBuilder,
  type Condition,
} from './expressions';
import {
  markerSeenAt,
  MARKER_HORIZON_MS,
  type MarkerChange,
  type MarkerWrites,
  type SequenceExpectation,
} from '../../domain/delivery/group-markers';
import { groupMarkerKey, type ItemKey } from '../../table/keys';
import { TABLE_DEFINITION } from '../../table/table-definition';
import {
  BESIDE_MARKER_ATTRIBUTE,
  INLINE_COUNT_ATTRIBUTE,
  markerAttribute,
  OVERFLOW_DAY_ATTRIBUTE,
} from './counter-attributes';
import { markerBytes } from './marker-bytes';

/** The condition a stored marker must meet for a write to be the right one. */
const markerCondition = (attribute: string, expect: SequenceExpectation): Condition =>
  expect.kind === 'absentOrBelow'
    ? anyOf(attributeAbsent(attribute), below(attribute, markerBytes(expect.sequence)))
    : expect.kind === 'presentBelow'
      ? allOf(attributeExists(attribute), below(attribute, markerBytes(expect.sequence)))
      : expect.sequence === null
        ? attributeAbsent(attribute)
        : equals(attribute, markerBytes(expect.sequence));

const asRead = (attribute: string, value: number | null): Condition =>
  value === null ? attributeAbsent(attribute) : equals(attribute, value);

/** What a write's marker bookkeeping holds the counter item to: its `gn` and the markers it holds. */
const inlineConditions = (update: UpdateBuilder, writes: MarkerWrites): Condition[] => {
  const conditions: Condition[] = [];
  const { inlineCount } = writes;
  if (inlineCount?.kind === 'required') conditions.push(attributeExists(INLINE_COUNT_ATTRIBUTE));
  if (inlineCount?.kind === 'set') {
    update.set(INLINE_COUNT_ATTRIBUTE, inlineCount.count);
    conditions.push(asRead(INLINE_COUNT_ATTRIBUTE, inlineCount.expect));
  }
  for (const [group, { expect, record }] of Object.entries(writes.sequences)) {
    update.set(markerAttribute(group), markerBytes(record));
    conditions.push(markerCondition(markerAttribute(group), expect));
  }
  return conditions;
};

/**
 * The counter item's part of a write's markers: the markers it holds set (or, unread, also a new item started with
 * its count of them), the idle ones removed, the count kept exact, every group written beside required absent from
 * the item, and the day of its last beside write raised, removed or checked. Each on condition that it is as read.
 */
export const counterMarkerWrites = (update: UpdateBuilder, writes: MarkerWrites): void => {
  const conditions = inlineConditions(update, writes);
  if (writes.newItemInline !== undefined) {
    update.setIfAbsent(INLINE_COUNT_ATTRIBUTE, writes.newItemInline);
    update.require(anyOf(attributeAbsent('PK'), allOf(...conditions)));
  } else for (const condition of conditions) update.require(condition);
  for (const { group, marker } of writes.prune)
    update.remove(markerAttribute(group)).require(equals(markerAttribute(group), markerBytes(marker)));
  for (const group of Object.keys(writes.beside)) update.require(attributeAbsent(markerAttribute(group)));
  const { overflow } = writes;
  if (!overflow) return;
  if (overflow.set !== undefined) update.set(OVERFLOW_DAY_ATTRIBUTE, overflow.set);
  if ('upTo' in overflow)
    update.require(anyOf(attributeAbsent(OVERFLOW_DAY_ATTRIBUTE), atMost(OVERFLOW_DAY_ATTRIBUTE, overflow.upTo)));
  else {
    if (overflow.remove) update.remove(OVERFLOW_DAY_ATTRIBUTE);
    update.require(asRead(OVERFLOW_DAY_ATTRIBUTE, overflow.expect));
  }
};

/** When a marker item expires: once its day is past the horizon, when no message it holds can be accepted again. */
const expiresAtSeconds = (record: string): number | undefined => {
  const seenAt = markerSeenAt(record);
  return seenAt === undefined ? undefined : Math.ceil((seenAt + MARKER_HORIZON_MS) / 1000);
};

/** The UpdateItem of one group's marker item beside a counter item, on condition that it is as read. Pure. */
export const besideMarkerRequest = (counterItem: ItemKey, group: string, { expect, record }: MarkerChange) => {
  const update = new UpdateBuilder().set(BESIDE_MARKER_ATTRIBUTE, markerBytes(record));
  const expiresAt = expiresAtSeconds(record);
  if (expiresAt !== undefined) update.set(TABLE_DEFINITION.timeToLiveAttribute, expiresAt);
  update.require(markerCondition(BESIDE_MARKER_ATTRIBUTE, expect));
  return { Key: groupMarkerKey(counterItem, group), ...update.build() } satisfies UpdateInput;
};
