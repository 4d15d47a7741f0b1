import type { CounterState } from './counter-state';

const DAY_MS = 86_400_000;

/**
 * A group's marker on an item is pruned once the item has not applied a message of the group for this long: longer
 * than the redelivery horizon (14 days), so that no message the recorder accepts can find its group's marker gone
 * after the item applied it.
 */
export const MARKER_HORIZON_MS = 15 * DAY_MS;

/**
 * Each pruned marker adds a condition: a write prunes this many at most, less one per group it writes (the next
 * ones, the next writes).
 */
export const MARKERS_PRUNED_PER_WRITE = 100;

/** The markers a counter item holds itself (`~<group>`); every other group's marker is in a marker item beside it. */
export const INLINE_MARKERS_PER_ITEM = 32;

/**
 * How many markers a counter item holds itself: `INLINE_MARKERS_PER_ITEM` wherever the recorder is deployed or run;
 * the model-based tests take fewer, so that a few message groups already reach the marker items beside it.
 */
export interface MarkerPlacement {
  inlineMarkers?: number;
}

/** The day (since 1970, UTC) of an instant, as markers and the item's last beside write (`ov`) record it. */
export const markerDay = (now: Date): number => Math.floor(now.getTime() / DAY_MS);

/**
 * A marker's text: the sequence, then `@` and the day (base 36, days since 1970) the item last applied a message of
 * the group. Text order stays sequence order: a marker with the same sequence and a day sorts after the bare
 * sequence, so "applied" and "below" compare as they do on bare sequences.
 */
export const markerText = (sequence: string, now: Date): string => `${sequence}@${markerDay(now).toString(36)}`;

/**
 * The latest instant the item can have last applied a message of the marker's group: the end of its day (ms), so
 * that a marker is idle past the horizon only when every instant of that day is; `undefined` without a day.
 */
export const markerSeenAt = (marker: string): number | undefined => {
  const at = marker.indexOf('@');
  const days = at < 0 ? NaN : parseInt(marker.slice(at + 1), 36);
  return Number.isFinite(days) ? (days + 1) * DAY_MS : undefined;
};

/** Whether a day (its end) lies more than the horizon before `now`. */
const isIdleDay = (day: number, now: Date): boolean => now.getTime() - (day + 1) * DAY_MS > MARKER_HORIZON_MS;

export type SequenceExpectation =
  | { kind: 'absentOrBelow'; sequence: string }
  | { kind: 'presentBelow'; sequence: string }
  | { kind: 'exactly'; sequence: string | null };

/**
 * How a write of a shard n ≥ 1 differs. `unread`: its first write (planned without a read) requires each group's
 * marker present and below, so that a group new on the shard fails once and its floor is read. `floors`: per
 * group, the highest marker the group has on any shard of the entity (left there before the entity was sharded or
 * before its count was raised): a message at or below it is applied.
 */
export interface ShardWriteOptions {
  unread?: 'presentBelow';
  floors?: Readonly<Record<string, string>>;
  /**
   * An unread write to an item the container saw keep markers beside it, with the groups it saw inline: the other
   * groups' markers are written beside at once (a transaction), on condition that the item does not hold them and
   * the marker item is absent or below. A wrong guess fails a condition and costs a read, never a count.
   */
  knownInline?: ReadonlySet<string>;
}

/** A group's marker as a write expects it and records it. */
export interface MarkerChange {
  expect: SequenceExpectation;
  record: string;
}

/**
 * Where a write puts each of its groups' markers, and what keeps the item's marker bookkeeping exact:
 * - `sequences`: markers on the item (`~<group>`); `beside`: markers in marker items, each written in the same
 *   transaction as the item, which then requires `~<group>` absent;
 * - `prune`: inline markers idle past the horizon, removed on condition that they are as read;
 * - `inlineCount`: the item's count of inline markers (`gn`): `required` (an unread write: the item must have one),
 *   or `set` on condition that it is as read (`null`: absent);
 * - `newItemInline`: an unread write may also find no item at all, and then starts `gn` at this count;
 * - `overflow`: the day of the item's last beside write (`ov`), on condition that it is as read (`null`: absent):
 *   raised to `set`, removed once idle past the horizon, or only checked (a group claims a place inline); unread,
 *   raised to `set` on condition that it is absent or at most `upTo`.
 */
export interface MarkerWrites {
  sequences: Record<string, MarkerChange>;
  beside: Record<string, MarkerChange>;
  prune: { group: string; marker: string }[];
  inlineCount?: { kind: 'required' } | { kind: 'set'; expect: number | null; count: number };
  newItemInline?: number;
  overflow?: { expect: number | null; set?: number; remove?: true } | { upTo: number; set: number };
}

const highest = (sequences: readonly string[]): string => sequences.reduce((high, s) => (s > high ? s : high));
const lowest = (sequences: readonly string[]): string => sequences.reduce((low, s) => (s < low ? s : low));

/**
 * The markers an unread write assumes: every group's present on the item and below its lowest sequence, or a new
 * item; or, on an item seen keeping markers beside it, each group not seen inline beside it.
 */
const unreadMarkers = (
  groups: ReadonlyMap<string, readonly string[]>,
  now: Date | undefined,
  { unread, knownInline }: ShardWriteOptions,
  inlineMarkers: number,
): MarkerWrites => {
  const record = (sequence: string) => (now ? markerText(sequence, now) : sequence);
  const sequences: Record<string, MarkerChange> = {};
  const beside: Record<string, MarkerChange> = {};
  for (const [group, ofGroup] of groups) {
    const inline = !now || !knownInline || knownInline.has(group);
    const kind = inline ? 'presentBelow' : 'absentOrBelow';
    (inline ? sequences : beside)[group] = {
      expect: { kind, sequence: lowest(ofGroup) },
      record: record(highest(ofGroup)),
    };
  }
  const writes: MarkerWrites = { sequences, beside, prune: [], inlineCount: { kind: 'required' } };
  if (now && Object.keys(beside).length > 0)
    return { ...writes, overflow: { upTo: markerDay(now), set: markerDay(now) } };
  // a shard n ≥ 1 never takes the new-item branch: a group new there must fail once, so that its floor is read
  return unread === 'presentBelow' || knownInline || groups.size > inlineMarkers
    ? writes
    : { ...writes, newItemInline: groups.size };
};

const prunedMarkers = (state: CounterState, groups: ReadonlyMap<string, unknown>, now: Date | undefined) =>
  Object.entries(state.applied)
    .flatMap(([group, marker]) => {
      const seenAt = markerSeenAt(marker);
      const idle = now !== undefined && seenAt !== undefined && now.getTime() - seenAt > MARKER_HORIZON_MS;
      return idle && !groups.has(group) ? [{ group, marker }] : [];
    })
    .slice(0, Math.max(0, MARKERS_PRUNED_PER_WRITE - groups.size));

/**
 * Where each group's marker goes, planned from the item as read (`state`, with the marker items of its groups that
 * are not inline in `state.beside`). A group inline stays inline. A group not inline goes inline only while the
 * item has room (at most `inlineMarkers`, `INLINE_MARKERS_PER_ITEM` by default) and no beside write within the horizon (`ov` absent or idle);
 * otherwise beside, in its marker item. Every choice is a condition of the write, so a race or retry fails it.
 * Unread (`state` undefined), every group must be inline already (or the item new). Without `now` (no day to
 * record) every marker is inline. `options`: a shard's (`ShardWriteOptions`) and `MarkerPlacement`. Pure.
 */
export const planGroupMarkers = (
  state: CounterState | undefined,
  groups: ReadonlyMap<string, readonly string[]>,
  now: Date | undefined,
  options: ShardWriteOptions & MarkerPlacement = {},
): MarkerWrites => {
  const record = (sequence: string) => (now ? markerText(sequence, now) : sequence);
  const { inlineMarkers = INLINE_MARKERS_PER_ITEM, ...shard } = options;
  if (!state) return unreadMarkers(groups, now, shard, inlineMarkers);
  const prune = prunedMarkers(state, groups, now);
  const counted = state.inlineCount ?? Object.keys(state.applied).length;
  const overflowDay = state.overflowDay;
  const roomInline = overflowDay === undefined || now === undefined || isIdleDay(overflowDay, now);
  const sequences: Record<string, MarkerChange> = {};
  const beside: Record<string, MarkerChange> = {};
  let claims = 0;
  for (const [group, ofGroup] of groups) {
    const inline = state.applied[group];
    const change = (stored: string | undefined) => ({
      expect: { kind: 'exactly' as const, sequence: stored ?? null },
      record: record(highest(ofGroup)),
    });
    if (inline !== undefined) sequences[group] = change(inline);
    else if (!now || (roomInline && counted - prune.length + claims < inlineMarkers)) {
      claims++;
      sequences[group] = change(undefined);
    } else beside[group] = change(state.beside?.[group]);
  }
  const writes: MarkerWrites = { sequences, beside, prune };
  if (claims > 0 || prune.length > 0 || state.inlineCount === undefined)
    writes.inlineCount = { kind: 'set', expect: state.inlineCount ?? null, count: counted - prune.length + claims };
  const today = now && markerDay(now);
  const expect = overflowDay ?? null;
  if (today !== undefined && Object.keys(beside).length > 0 && (overflowDay === undefined || overflowDay < today))
    writes.overflow = { expect, set: today };
  else if (overflowDay !== undefined && now && roomInline) writes.overflow = { expect, remove: true };
  else if (claims > 0) writes.overflow = { expect };
  return writes;
};
