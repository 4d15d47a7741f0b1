import type { Metric, Period } from '../limits/cap-axes';
import type { CounterWrite, PeriodWrite, SlotWrite } from './counter-plan';
import type { CounterState, Slot } from './counter-state';
import { unitScale, unitsFromCap } from './exact-units';
import type { CapOnCounter } from './limit-reached';

/** That a counter of one slot must stay below `belowUnits` before the write for it not to reach its cap. */
export interface HeadroomGuard {
  period: Period;
  metric: Metric;
  slot: Slot;
  belowUnits: bigint;
}

const guardsOfSlot = (cap: CapOnCounter, slot: Slot, { mode, tally }: SlotWrite): HeadroomGuard[] | undefined => {
  const capUnits = unitsFromCap(cap.value, unitScale(cap.metric));
  const units = tally[cap.metric] ?? 0n;
  // a slot set to a period's counters holds exactly them: at or over the cap, the write may be the one that reached it
  if (mode === 'set') return units >= capUnits ? undefined : [];
  if (units === 0n) return [];
  if (capUnits - units <= 0n) return undefined;
  return [{ period: cap.period, metric: cap.metric, slot, belowUnits: capUnits - units }];
};

/**
 * What proves a counter write cannot make a counter reach a cap it is judged against: for each capped counter it adds
 * to, that the counter was below the cap less what it adds. Undefined when nothing can prove it (it adds at least the
 * cap, or sets a counter at or over it): such a write is told to the table's stream as one that may have reached a
 * cap. A write that raises no capped counter needs no guard. Pure.
 */
export const headroomGuards = (write: CounterWrite, caps: readonly CapOnCounter[]): HeadroomGuard[] | undefined => {
  const guards: HeadroomGuard[] = [];
  for (const cap of caps) {
    if (cap.value <= 0) continue;
    const change: PeriodWrite | undefined = write.periods[cap.period];
    for (const [slot, slotWrite] of Object.entries(change?.slots ?? {}) as [Slot, SlotWrite][]) {
      const own = guardsOfSlot(cap, slot, slotWrite);
      if (!own) return undefined;
      guards.push(...own);
    }
  }
  return guards;
};

/** The counter of a guard's slot, as an item read holds it (0 when absent). */
const counterOf = (state: CounterState, { period, metric, slot }: HeadroomGuard): bigint =>
  (slot === 'current' ? state.counters[period] : state.previous?.[period]?.tally)?.[metric] ?? 0n;

/** Whether every guard holds on the item as read: when one does not, the write is near a cap. Pure. */
export const guardsHold = (guards: readonly HeadroomGuard[], state: CounterState): boolean =>
  guards.every((guard) => counterOf(state, guard) < guard.belowUnits);

/**
 * Whether a write is marked for the stream's trigger as maybe reaching a cap: when it is planned near one (`near`),
 * when the caps it is judged against are not known, or when nothing proves it reaches none. Pure.
 */
export const marksNearCap = (write: CounterWrite, caps: readonly CapOnCounter[] | undefined, near: boolean): boolean =>
  near || !caps || headroomGuards(write, caps) === undefined;
