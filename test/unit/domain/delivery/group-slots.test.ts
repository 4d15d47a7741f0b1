import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_COUNTERS, type CounterState } from '../../../../shared/domain/delivery/counter-state';
import { GROUP_SLOTS, placeGroups, slotOfGroup, slotsCollide } from '../../../../shared/domain/delivery/group-slots';

const never = () => false;
const always = () => true;
/** Two group names of one slot, found by search, not by the code's own rule. */
const sameSlot = (() => {
  const seen = new Map<number, string>();
  for (let index = 0; ; index++) {
    const name = `producer-${index}`;
    const other = seen.get(slotOfGroup(name));
    if (other) return [other, name] as const;
    seen.set(slotOfGroup(name), name);
  }
})();

describe('group slots', () => {
  it('are one of 32 for any name of up to 128 characters, the same every time', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 128 }), (group) => {
        const slot = slotOfGroup(group);
        expect(Number.isInteger(slot) && slot >= 0 && slot < GROUP_SLOTS).toBe(true);
        expect(slotOfGroup(group)).toBe(slot);
      }),
    );
  });

  it('without a read, every group is assumed in its slot', () => {
    expect(placeGroups(undefined, ['a'], never, never).get('a')).toEqual({
      kind: 'slot',
      slot: slotOfGroup('a'),
      claim: false,
    });
    expect(slotsCollide([...sameSlot])).toBe(true);
    expect(slotsCollide(['a'])).toBe(false);
  });

  it('claims a free slot; goes beside the item when another group owns it or a group of it went beside lately', () => {
    const [owner, other] = sameSlot;
    const slot = slotOfGroup(owner);
    const owned: CounterState = { ...EMPTY_COUNTERS, slots: { [slot]: { owner, marker: '5' } } };
    expect(placeGroups(EMPTY_COUNTERS, [other], never, never).get(other)).toMatchObject({ kind: 'slot', claim: true });
    expect(placeGroups(owned, [owner], never, never).get(owner)).toEqual({ kind: 'slot', slot, claim: false });
    expect(placeGroups(owned, [other], never, never).get(other)).toEqual({
      kind: 'item',
      slot,
      slotAsRead: { owner, marker: '5' },
    });
    // the owner idle past the horizon: the slot is free, unless a group of it went beside the item lately
    expect(placeGroups(owned, [other], always, never).get(other)).toMatchObject({ kind: 'slot', claim: true });
    const overflowed: CounterState = { ...owned, overflowDays: { [slot]: 20_000 } };
    expect(placeGroups(overflowed, [other], always, always).get(other)).toMatchObject({ kind: 'item' });
    expect(placeGroups(overflowed, [other], always, never).get(other)).toMatchObject({ kind: 'slot', claim: true });
  });

  it('gives a slot to one group of a write; the others of that slot go beside the item', () => {
    const places = placeGroups(EMPTY_COUNTERS, [...sameSlot], never, never);
    expect([...places.values()].map((place) => place.kind).sort()).toEqual(['item', 'slot']);
  });
});
