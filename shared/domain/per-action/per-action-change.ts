import { DEMAND_GRID } from '../limits/cap-grid';
import { parseCapValue } from '../limits/cap-values';
import { periodConflicts } from '../limits/limit-change';

/** Stored figures of one per-action limit; 0 means uncapped. */
export interface PerActionCaps {
  dailyConversionsLimit: number;
  totalConversionsLimit: number;
}

export type PerActionPlan =
  { outcome: 'ok'; next: PerActionCaps } | { outcome: 'invalid'; errors: Record<string, string> };

const FIELDS = ['dailyConversionsLimit', 'totalConversionsLimit'] as const;

/**
 * add and update: each changes only the cap sent; a cap left out keeps its stored value, or is 0 on a new limit.
 * A daily cap above a non-zero total is refused, judged against what will be stored, by the grids' own period rule.
 */
export const planPerActionChange = (
  stored: PerActionCaps | undefined,
  get: (name: string) => string | undefined,
): PerActionPlan => {
  const errors: Record<string, string> = {};
  const sent: Partial<PerActionCaps> = {};
  for (const field of FIELDS) {
    const text = get(field);
    if (text === undefined) continue;
    const parsed = parseCapValue(DEMAND_GRID.byName.get(field)!, text);
    if (parsed.ok) sent[field] = parsed.value;
    else errors[field] = parsed.reason;
  }
  if (Object.keys(errors).length > 0) return { outcome: 'invalid', errors };
  if (Object.keys(sent).length === 0)
    return {
      outcome: 'invalid',
      errors: {
        dailyConversionsLimit: 'send dailyConversionsLimit, totalConversionsLimit or both',
        totalConversionsLimit: 'send dailyConversionsLimit, totalConversionsLimit or both',
      },
    };
  const next: PerActionCaps = {
    dailyConversionsLimit: sent.dailyConversionsLimit ?? stored?.dailyConversionsLimit ?? 0,
    totalConversionsLimit: sent.totalConversionsLimit ?? stored?.totalConversionsLimit ?? 0,
  };
  const conflicts = periodConflicts(DEMAND_GRID, { ...next }, new Set(Object.keys(sent)));
  if (Object.keys(conflicts).length > 0) return { outcome: 'invalid', errors: conflicts };
  return { outcome: 'ok', next };
};

/**
 * delete.do's ids per call: one transaction (at most 100 items) holds two per limit (its delete, its counters
 * cleared) and two for the history entry (the entity's history version, the entry).
 */
export const MAX_IDS_PER_DELETE = 49;
