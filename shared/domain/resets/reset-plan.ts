import type { CapDefinition, CapGrid } from '../limits/cap-grid';
import { COUNTER_RESETS, RESET_NAMES } from './reset-names';

export type ResetNames = { ok: true; names: string[] } | { ok: false; reason: string };

/** limitCounters: at least one of the 29 names, case-sensitive; repeats collapse. */
export const parseResetNames = (values: readonly string[]): ResetNames => {
  if (values.length === 0) return { ok: false, reason: 'at least one counter name is required' };
  const unknown = values.filter((value) => !RESET_NAMES.has(value));
  if (unknown.length > 0)
    return { ok: false, reason: `unknown counter name${unknown.length > 1 ? 's' : ''}: ${[...new Set(unknown)].join(', ')} (names are case-sensitive, e.g. DAILY_IMPRESSIONS, TOTAL_REVENUE, ALL)` };
  return { ok: true, names: [...new Set(values)] };
};

/** A permission a reset needs: a cap's own, or the per-action permission of the level. */
export type ResetPermission = { kind: 'cap'; cap: CapDefinition } | { kind: 'perAction'; permission: string };

/**
 * Permissions a reset needs: each named counter its cap's permission (counters without a cap on this level,
 * such as TOTAL_REQUESTS on a campaign, need none beyond the level's own); ALL_LIMITS and ALL the permission of
 * every cap the record sets; ALL_ACTION_LIMITS and ALL the level's per-action permission.
 */
export const resetPermissions = (
  names: readonly string[],
  grid: CapGrid,
  setCaps: Readonly<Record<string, number>>,
  perActionPermission: string,
): ResetPermission[] => {
  const caps = new Set<CapDefinition>();
  let perAction = false;
  for (const name of names) {
    if (COUNTER_RESETS.includes(name)) {
      const cap = grid.caps.find((candidate) => candidate.resetName === name);
      if (cap) caps.add(cap);
    }
    if (name === 'ALL_LIMITS' || name === 'ALL') for (const cap of grid.caps) if (setCaps[cap.name] !== undefined) caps.add(cap);
    if (name === 'ALL_ACTION_LIMITS' || name === 'ALL') perAction = true;
  }
  return [
    ...[...caps].map((cap): ResetPermission => ({ kind: 'cap', cap })),
    ...(perAction ? [{ kind: 'perAction', permission: perActionPermission } as const] : []),
  ];
};
