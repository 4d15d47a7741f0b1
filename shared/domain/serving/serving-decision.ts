import type { Entity } from '../access';
import type { CapDefinition, CapGrid } from '../limits/cap-grid';
import { formatLimitDate } from '../limits/limit-dates';
import type { LimitRecord } from '../limits/limit-record';
import type { CurrentCounters } from '../delivery/counter-state';
import { ExactNumber, unitScale, unitsFromCap } from '../delivery/exact-units';
import { counterUnits } from '../limits/limit-view';

export interface PerActionState {
  actionId: number;
  dailyConversionsLimit: number;
  totalConversionsLimit: number;
  dailyConversions: bigint;
  totalConversions: bigint;
}

/** Everything that decides whether one entity may deliver now. */
export interface EntityServingState {
  entity: Entity;
  grid: CapGrid;
  limit?: LimitRecord;
  counters: CurrentCounters;
  /** When the last conversion came (or the first delivery), ms; and impressions since. */
  noConversion: { quietSince?: number; impressionsSinceConversion: bigint };
  /** Per-action limits cap only while this is on; sites and placements are always on. */
  perActionEnabled: boolean;
  perAction: readonly PerActionState[];
}

export interface StopReason {
  entity: string;
  /** Absent when the reason is hidden from the caller (`hidden: true`). */
  field?: string;
  cap?: number;
  counter?: ExactNumber;
  [detail: string]: unknown;
}

const DAY_MS = 86_400_000;

/** Fraction of the UTC day gone at `now`. */
export const elapsedDayFraction = (now: Date): number => (now.getTime() % DAY_MS) / DAY_MS;

/** A cap stops delivery when cap > 0 and counter ≥ cap: equal counts. In units, exactly. */
const capReached = (cap: bigint, counter: bigint): boolean => cap > 0n && counter >= cap;

const actionReached = (action: PerActionState): boolean =>
  capReached(BigInt(action.dailyConversionsLimit), action.dailyConversions) ||
  capReached(BigInt(action.totalConversionsLimit), action.totalConversions);

/** What the caller may learn: entities it holds a share on (directly or through an ancestor), caps its permissions show. */
export interface Visibility {
  entity(entity: Entity): boolean;
  cap(cap: CapDefinition): boolean;
  perAction: boolean;
}

const EVERYTHING: Visibility = { entity: () => true, cap: () => true, perAction: true };

/** All a caller learns of a reason it may not see: that the entity stops delivery. */
export const hiddenReason = (name: string): StopReason => ({ entity: name, hidden: true });

/** A reached cap as status.do shows it to a caller who may see the cap. */
export const reachedReason = (reached: {
  entity: string;
  field: string;
  cap: number;
  counter: ExactNumber;
  actionId?: number;
}): StopReason => ({
  entity: reached.entity,
  field: reached.field,
  ...(reached.actionId !== undefined ? { actionId: reached.actionId } : {}),
  cap: reached.cap,
  counter: reached.counter,
});

const capReasons = (
  state: EntityServingState,
  name: string,
  now: Date,
  visible: (cap: CapDefinition) => boolean,
): StopReason[] => {
  const reasons: StopReason[] = [];
  const limit = state.limit!;
  const elapsed = BigInt(now.getTime() % DAY_MS);
  for (const cap of state.grid.caps) {
    const value = limit.caps[cap.name] ?? 0;
    if (value <= 0) continue;
    const scale = unitScale(cap.metric);
    const capUnits = unitsFromCap(value, scale);
    const counter = counterUnits(cap, state.counters);
    const reached = capReached(capUnits, counter);
    // even pacing: counter ≥ cap × elapsed share of the day, compared exactly
    const paced =
      !reached && limit.evenPacing && cap.period === 'daily' && counter * BigInt(DAY_MS) >= capUnits * elapsed;
    if (!reached && !paced) continue;
    if (!visible(cap)) {
      reasons.push(hiddenReason(name));
      continue;
    }
    reasons.push({
      ...reachedReason({ entity: name, field: cap.name, cap: value, counter: ExactNumber.of(counter, scale) }),
      ...(paced ? { evenPacing: true, pacedAllowance: Math.floor(value * elapsedDayFraction(now) * 1000) / 1000 } : {}),
    });
  }
  return reasons;
};

/** Per-action caps reached: each with its action, or only `hidden` when per-action limits are hidden. */
const perActionReasons = (actions: readonly PerActionState[], name: string, visible: boolean): StopReason[] => {
  if (!visible) return actions.some((action) => actionReached(action)) ? [hiddenReason(name)] : [];
  return actions.flatMap((action) =>
    (['daily', 'total'] as const).flatMap((period) => {
      const cap = action[`${period}ConversionsLimit`];
      const counter = action[`${period}Conversions`];
      if (!capReached(BigInt(cap), counter)) return [];
      const field = `${period}ConversionsLimit`;
      return [
        reachedReason({ entity: name, field, actionId: action.actionId, cap, counter: ExactNumber.of(counter, 1n) }),
      ];
    }),
  );
};

/**
 * Why one entity may not deliver at `now`; empty when it may. Pure: every input comes in, nothing is read.
 * `visible` says which caps the caller may see; hidden ones are named with their permission, without numbers.
 */
export const entityStopReasons = (
  state: EntityServingState,
  now: Date,
  visibility: Visibility = EVERYTHING,
): StopReason[] => {
  const { entity, limit } = state;
  const name = `${entity.type}#${entity.id}`;
  const reasons: StopReason[] = [];
  if (entity.deleted) reasons.push({ entity: name, field: 'deleted' });
  if (entity.active === false) reasons.push({ entity: name, field: 'active' });
  if (limit?.startDate !== undefined && now.getTime() < limit.startDate)
    reasons.push({ entity: name, field: 'startDate', startDate: formatLimitDate(limit.startDate) });
  if (limit?.endDate !== undefined && now.getTime() > limit.endDate)
    reasons.push({ entity: name, field: 'endDate', endDate: formatLimitDate(limit.endDate) });
  if (limit) reasons.push(...capReasons(state, name, now, (cap) => visibility.cap(cap)));

  const hoursThreshold = entity.noConversionHoursThreshold ?? 0;
  const impressionsThreshold = entity.noConversionImpressionsThreshold ?? 0;
  const quietHours =
    state.noConversion.quietSince === undefined ? 0 : (now.getTime() - state.noConversion.quietSince) / 3_600_000;
  const quietImpressions = state.noConversion.impressionsSinceConversion;
  // both thresholds must be crossed, not either
  if (
    hoursThreshold > 0 &&
    impressionsThreshold > 0 &&
    quietHours >= hoursThreshold &&
    quietImpressions >= BigInt(impressionsThreshold)
  )
    reasons.push({
      entity: name,
      field: 'noConversion',
      hoursSinceConversion: Math.floor(quietHours * 10) / 10,
      impressionsSinceConversion: ExactNumber.of(quietImpressions, 1n),
    });

  if (state.perActionEnabled) reasons.push(...perActionReasons(state.perAction, name, visibility.perAction));
  // an entity the caller may not see, or a cap it may not see: only that the entity stops delivery
  if (!visibility.entity(entity)) return reasons.length > 0 ? [hiddenReason(name)] : [];
  const shown = reasons.filter((reason) => reason.hidden !== true);
  return shown.length < reasons.length ? [...shown, hiddenReason(name)] : shown;
};

/** A banner delivers only if it, its campaign and its advertiser all may; a placement only with its site. */
export const servingDecision = (
  chain: readonly EntityServingState[],
  now: Date,
  visibility?: Visibility,
): { deliverable: boolean; reasons: StopReason[] } => {
  const reasons = chain.flatMap((state) => entityStopReasons(state, now, visibility));
  return { deliverable: reasons.length === 0, reasons };
};
