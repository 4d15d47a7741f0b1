import type { CapDefinition, CapGrid } from '../limits/cap-grid';
import { RESET_NAMES, resetScope } from './reset-names';

export type ResetNames = { ok: true; names: string[] } | { ok: false; reason: string };

/** limitCounters: at least one of the 29 names, case-sensitive; repeats collapse. */
export const parseResetNames = (values: readonly string[]): ResetNames => {
  if (values.length === 0) return { ok: false, reason: 'at least one counter name is required' };
  const unknown = values.filter((value) => !RESET_NAMES.has(value));
  if (unknown.length > 0)
    return {
      ok: false,
      reason: `unknown counter name${unknown.length > 1 ? 's' : ''}: ${[...new Set(unknown)].join(', ')} (names are case-sensitive, e.g. DAILY_IMPRESSIONS, TOTAL_REVENUE, ALL)`,
    };
  return { ok: true, names: [...new Set(values)] };
};

/** A permission a reset needs: a cap's own, or the per-action permission of the level. */
export type ResetPermission = { kind: 'cap'; cap: CapDefinition } | { kind: 'perAction'; permission: string };

/**
 * Permissions a reset needs: each named counter its cap's permission (counters without a cap on this level,
 * such as TOTAL_REQUESTS on a campaign, need none beyond the level's own); ALL_LIMITS and ALL the permission of
 * every cap the record sets, and of every cap hidden from the caller; ALL_ACTION_LIMITS and ALL the level's per-action permission.
 */
export const resetPermissions = (
  names: readonly string[],
  { grid, perActionPermission }: { grid: CapGrid; perActionPermission: string },
  {
    setCaps,
    hidden = () => false,
  }: { setCaps: Readonly<Record<string, number>>; hidden?: (cap: CapDefinition) => boolean },
): ResetPermission[] => {
  const scope = resetScope(names);
  const caps = new Set<CapDefinition>(
    grid.caps.filter(
      (cap) =>
        scope.counters.some((counter) => counter.period === cap.period && counter.metric === cap.metric) ||
        // a cap hidden from the caller counts as set, so that a refusal never tells whether it is
        (scope.allDeliveryCounters && (setCaps[cap.name] !== undefined || hidden(cap))),
    ),
  );
  const perAction = scope.allActionCounters;
  return [
    ...[...caps].map((cap): ResetPermission => ({ kind: 'cap', cap })),
    ...(perAction ? [{ kind: 'perAction', permission: perActionPermission } as const] : []),
  ];
};
