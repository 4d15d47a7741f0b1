import type { CounterState } from '../../../../shared/domain/delivery/counter-state';

/** A counter item's state as read: nothing counted or applied, but the fields given. */
export const counterStateWith = (fields: Partial<CounterState>): CounterState => ({
  keys: {},
  counters: {},
  applied: {},
  impressionsSinceConversion: 0n,
  ...fields,
});
