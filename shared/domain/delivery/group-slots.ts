import type { CounterState } from './counter-state';

/**
 * Where a counter item keeps a message group's marker, whatever the number of groups and the length of their
 * names: in one of `GROUP_SLOTS` slots of the item, or beside it in a marker item of its own.
 *
 * - A group's slot is fixed by its name (`slotOfGroup`). A slot holds the marker of one group, its owner, whose name
 *   it stores with the marker: a slot can never be mistaken for another group's.
 * - A group takes (claims) its slot when the slot is empty and no group of that slot has been written beside the
 *   item (its overflow day, `overflowDays`) within the marker horizon. Otherwise, while another group owns the
 *   slot or such an overflow is recent, the group's marker lives in its marker item, written in the same
 *   transaction as the counter item, which records the slot's overflow day.
 * - Why a marker is never in two places: a group claims a slot only when no group of the slot has been written
 *   beside the item for longer than the marker horizon, so no message applied through a marker item can still be
 *   delivered (the redelivery horizon is shorter); and a group is written beside the item only when the slot,
 *   as read and required by the write's condition, is not its own.
 */
export const GROUP_SLOTS = 32;

/** 32-bit FNV-1a of the name's UTF-16 code units, then mixed (MurmurHash3's finaliser): not the shard's hash. */
const slotHash = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
};

/** The slot of a message group on every counter item: always the same for the same name. */
export const slotOfGroup = (group: string): number => slotHash(group) % GROUP_SLOTS;

/** A slot as stored: the group that owns it and its marker (see `markerText`). */
export interface SlotValue {
  owner: string;
  marker: string;
}

/**
 * Where a write puts a group's marker. `slot`: the group's own slot (`claim`: taking it, on condition that the slot
 * and its overflow day are as read). `item`: the group's marker item, on condition that the slot is as read (not
 * the group's), the write recording the slot's overflow day.
 */
export type GroupPlace =
  | { kind: 'slot'; slot: number; claim: false }
  | { kind: 'slot'; slot: number; claim: true; slotAsRead: SlotValue | null; overflowAsRead: number | null }
  | { kind: 'item'; slot: number; slotAsRead: SlotValue | null };

/**
 * The place of each group's marker on an item read (`state`). Without a read (the first, blind write), the slot:
 * the write's condition requires it owned by the group or free to claim. A slot is free when empty or its owner is
 * idle past the horizon (`isIdle`), and no group of it was written beside the item within the horizon
 * (`overflowRecent`). Of several groups of one slot in a write, one may take it; the others go beside. Pure.
 */
export const placeGroups = (
  state: CounterState | undefined,
  groups: readonly string[],
  isIdle: (marker: string) => boolean,
  overflowRecent: (day: number) => boolean,
): Map<string, GroupPlace> => {
  const places = new Map<string, GroupPlace>();
  const taken = new Set<number>();
  const sorted = [...groups].sort();
  // owners first, so that a claim never takes a slot its owner writes in the same request
  for (const group of sorted) {
    const slot = slotOfGroup(group);
    if (!state || state.slots?.[slot]?.owner === group) {
      if (taken.has(slot)) continue;
      places.set(group, { kind: 'slot', slot, claim: false });
      taken.add(slot);
    }
  }
  for (const group of sorted) {
    if (places.has(group)) continue;
    const slot = slotOfGroup(group);
    const slotAsRead = state?.slots?.[slot] ?? null;
    const overflowAsRead = state?.overflowDays?.[slot] ?? null;
    const free =
      (!slotAsRead || isIdle(slotAsRead.marker)) && (overflowAsRead === null || !overflowRecent(overflowAsRead));
    if (state && free && !taken.has(slot))
      places.set(group, { kind: 'slot', slot, claim: true, slotAsRead, overflowAsRead });
    else places.set(group, { kind: 'item', slot, slotAsRead });
    taken.add(slot);
  }
  return places;
};

/** Whether two of the groups share a slot: a write of them needs the item read first. */
export const slotsCollide = (groups: readonly string[]): boolean =>
  new Set(groups.map(slotOfGroup)).size < new Set(groups).size;
