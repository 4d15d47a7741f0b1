import type { CapDefinition, CapGrid } from '../limits/cap-grid';
import { formatLimitDate } from '../limits/limit-dates';
import { EMPTY_LIMIT, type LimitState } from '../limits/limit-record';

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
  /** A reset is recorded when it was asked for (`at`) and says when the flush applied it. */
  appliedAt?: string;
}

/** History is kept at least 400 days. */
export const HISTORY_RETENTION_DAYS = 400;

const settingsOf = (state: LimitState): Record<string, unknown> =>
  Object.assign({}, state.caps, {
    startDate: state.startDate === undefined ? null : formatLimitDate(state.startDate),
    endDate: state.endDate === undefined ? null : formatLimitDate(state.endDate),
    evenPacing: state.evenPacing,
    useLocalTime: state.useLocalTime,
    timezoneOffset: state.timezoneOffset,
  });

/** Every field whose value differs, from its old value to its new one (null when absent); empty when none. */
export const fieldChanges = (
  from: Readonly<Record<string, unknown>>,
  to: Readonly<Record<string, unknown>>,
): Record<string, FieldChange> => {
  const changes: Record<string, FieldChange> = {};
  for (const name of new Set([...Object.keys(from), ...Object.keys(to)])) {
    const was = from[name] ?? null;
    const now = to[name] ?? null;
    if (was !== now) changes[name] = { from: was, to: now };
  }
  return changes;
};

/**
 * Every setting a limit write changed (dates in UTC); empty when nothing changed. An absent record has the
 * defaults' settings, so creating one lists only what differs from them, and deleting one only what was not.
 */
export const limitChanges = (before: LimitState | undefined, after: LimitState | undefined) =>
  fieldChanges(settingsOf(before ?? EMPTY_LIMIT), settingsOf(after ?? EMPTY_LIMIT));

/** What the caller may see of an entity's history: the caps its permissions show, and per-action limits or not. */
export interface HistoryVisibility {
  grid: CapGrid;
  cap: (cap: CapDefinition) => boolean;
  perAction: boolean;
}

const PER_ACTION_OPERATIONS: ReadonlySet<HistoryOperation> = new Set([
  'actionAdd',
  'actionUpdate',
  'actionDelete',
  'actionsEnabled',
  'actionsDisabled',
]);

/**
 * An entry as the caller may see it: fields, ignored fields and reset counters of caps its permissions hide are
 * left out, and so is an entry that touched nothing else (its mere existence would tell that a hidden cap
 * changed), or a per-action entry when per-action limits are hidden. Pure.
 */
export const visibleEntry = (entry: HistoryEntry, visibility: HistoryVisibility): HistoryEntry | undefined => {
  if (PER_ACTION_OPERATIONS.has(entry.operation) && !visibility.perAction) return undefined;
  // a field is a cap or a cap's counter (ignoredFields names counters sent); either is shown only with its cap
  const shownField = (name: string) => {
    const cap = visibility.grid.byName.get(name) ?? visibility.grid.byCounter.get(name);
    return cap === undefined || visibility.cap(cap);
  };
  const shownCounter = (name: string) => {
    if (name === 'ALL_ACTION_LIMITS') return visibility.perAction;
    const cap = visibility.grid.caps.find((candidate) => candidate.resetName === name);
    return cap === undefined || visibility.cap(cap);
  };
  const fields = entry.fields && Object.fromEntries(Object.entries(entry.fields).filter(([name]) => shownField(name)));
  const ignoredFields = entry.ignoredFields?.filter(shownField) ?? [];
  const limitCounters = entry.limitCounters?.filter(shownCounter);
  // an entry is recorded only when something changed: one whose changes are all hidden is left out whole, what
  // the request merely sent (ignoredFields) does not keep it
  const onlyHiddenFields = Object.keys(entry.fields ?? {}).length > 0 && Object.keys(fields ?? {}).length === 0;
  const touchedSomethingShown = !onlyHiddenFields && (limitCounters === undefined || limitCounters.length > 0);
  if (!touchedSomethingShown) return undefined;
  const shown: HistoryEntry = { ...entry };
  delete shown.ignoredFields;
  return {
    ...shown,
    ...(fields ? { fields } : {}),
    ...(ignoredFields.length > 0 ? { ignoredFields } : {}),
    ...(limitCounters ? { limitCounters } : {}),
  };
};

/** history.do's `limit`: how many entries a page holds. */
export const HISTORY_PAGE_DEFAULT = 50;
export const HISTORY_PAGE_MAXIMUM = 500;
