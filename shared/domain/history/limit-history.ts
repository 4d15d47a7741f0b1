import type { CapDefinition } from '../limits/cap-grid';
import { formatLimitDate } from '../limits/limit-dates';
import type { LimitState } from '../limits/limit-record';

export const HISTORY_OPERATIONS = [
  'set',
  'update',
  'delete',
  'reset',
  'actionAdd',
  'actionUpdate',
  'actionDelete',
  'actionsEnabled',
  'actionsDisabled',
] as const;
export type HistoryOperation = (typeof HISTORY_OPERATIONS)[number];

/** Who made a change, as the request's principal named them. */
export interface ChangeAuthor {
  userId: number;
  username: string;
  method: string;
}

export type FieldChange = { from: unknown; to: unknown };

/** One change of a limit, as history.do shows it. */
export interface HistoryEntry {
  at: string;
  operation: HistoryOperation;
  by: ChangeAuthor;
  fields?: Record<string, FieldChange>;
  ignoredFields?: string[];
  limitCounters?: string[];
  actionId?: number;
  actionIds?: number[];
}

/** History is kept at least 400 days. */
export const HISTORY_RETENTION_DAYS = 400;

const settingsOf = (state: LimitState | undefined): Record<string, unknown> =>
  state
    ? {
        ...state.caps,
        startDate: state.startDate === undefined ? null : formatLimitDate(state.startDate),
        endDate: state.endDate === undefined ? null : formatLimitDate(state.endDate),
        evenPacing: state.evenPacing,
        useLocalTime: state.useLocalTime,
        timezoneOffset: state.timezoneOffset,
      }
    : {};

/** Every field a write changed, from its stored value to its new one (dates in UTC); empty when nothing changed. */
export const limitChanges = (
  before: LimitState | undefined,
  after: LimitState | undefined,
): Record<string, FieldChange> => {
  const from = settingsOf(before);
  const to = settingsOf(after);
  const changes: Record<string, FieldChange> = {};
  for (const name of new Set([...Object.keys(from), ...Object.keys(to)])) {
    const was = from[name] ?? null;
    const now = to[name] ?? null;
    if (was !== now) changes[name] = { from: was, to: now };
  }
  return changes;
};

/**
 * An entry as the caller may see it: fields of caps its permissions hide are left out, and so are ignored fields
 * naming them. Pure.
 */
export const visibleEntry = (
  entry: HistoryEntry,
  capOf: (name: string) => CapDefinition | undefined,
  visible: (cap: CapDefinition) => boolean,
): HistoryEntry => {
  const shown = (name: string) => {
    const cap = capOf(name);
    return cap === undefined || visible(cap);
  };
  const fields = entry.fields
    ? Object.fromEntries(Object.entries(entry.fields).filter(([name]) => shown(name)))
    : undefined;
  const ignoredFields = entry.ignoredFields?.filter(shown);
  return {
    ...entry,
    ...(fields ? { fields } : {}),
    ...(ignoredFields ? { ignoredFields } : {}),
  };
};
