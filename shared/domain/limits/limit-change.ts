import { parseBooleanText } from '../boolean-text';
import type { PermissionLevel } from '../permissions';
import { dictionary } from '../dictionary';
import { echoedName } from '../echoed-name';
import { type CapDefinition, type CapGrid } from './cap-grid';
import { PERIODS } from './cap-axes';
import { parseCapValue } from './cap-values';
import { DATE_FORMATS_MESSAGE, parseLimitDate, parseTimezoneOffset } from './limit-dates';
import { EMPTY_LIMIT, type LimitState } from './limit-record';

/** Parameters that carry authentication or output options, never limit fields. */
export const TRANSPORT_PARAMETERS: ReadonlySet<string> = new Set([
  'username',
  'timestamp',
  'hash',
  'output',
  'json',
  'callback',
  'dryRun',
]);

export const COUNTER_REASON = 'counters are read-only: they change only through reset.do or as delivery is recorded';
export const UNKNOWN_REASON = 'unknown parameter';

/** How one side treats caps: which grid, who may change what, and what a change without permission does. */
export interface CapPolicy {
  grid: CapGrid;
  /** Counter names of every grid, so a counter sent to any level is recognised as one. */
  allCounters: ReadonlySet<string>;
  /** Caps of the other side that are a 400 here (budget and opportunity caps on sites and placements). */
  refusedCaps: ReadonlyMap<string, string>;
  permissionOf(cap: CapDefinition): PermissionLevel;
  /** Demand side: a cap changed without permission is ignored. Supply side: the request is refused with 403. */
  forbiddenChange: 'ignore' | 'refuse';
}

export type ChangePlan =
  | { outcome: 'invalid'; errors: Record<string, string> }
  | { outcome: 'forbidden'; field: string; permission: string }
  | { outcome: 'ok'; next: LimitState; ignored: Record<string, string> };

export interface ChangeRequest {
  names: readonly string[];
  get(name: string): string | undefined;
}

const BOOLEAN_SETTINGS = ['evenPacing', 'useLocalTime', 'removeStartDateLimit', 'removeEndDateLimit'] as const;
const SETTINGS: ReadonlySet<string> = new Set([...BOOLEAN_SETTINGS, 'startDate', 'endDate', 'timezoneOffset']);

const periodRank = (cap: CapDefinition): number => PERIODS.indexOf(cap.period);

/**
 * Shorter-period caps may not exceed a non-zero longer-period cap of the same metric; judged only where a sent cap
 * takes part, and only between caps the caller can see. A cap hidden from the caller never decides whether its
 * write is accepted (no answer may depend on a value it cannot read); both caps still govern delivery, so the
 * tighter one stops it either way.
 */
export const periodConflicts = (
  grid: CapGrid,
  caps: Record<string, number>,
  sent: ReadonlySet<string>,
  visible: (cap: CapDefinition) => boolean = () => true,
): Record<string, string> => {
  const errors: Record<string, string> = {};
  for (const name of sent) {
    const cap = grid.byName.get(name)!;
    const value = caps[name] ?? 0;
    for (const other of grid.caps) {
      if (other.metric !== cap.metric || other === cap || !visible(other)) continue;
      const otherValue = caps[other.name] ?? 0;
      if (periodRank(cap) < periodRank(other) && otherValue > 0 && value > otherValue) {
        errors[name] ??= `must not exceed ${other.name} (${otherValue})`;
      } else if (periodRank(cap) > periodRank(other) && value > 0 && otherValue > value && !sent.has(other.name)) {
        errors[name] ??= `must not be below ${other.name} (${otherValue})`;
      }
    }
  }
  return errors;
};

type BooleanSetting = (typeof BOOLEAN_SETTINGS)[number];

interface SentParameters {
  caps: Map<CapDefinition, number>;
  flags: Partial<Record<BooleanSetting, boolean>>;
  timezoneOffset?: number;
  errors: Record<string, string>;
  ignored: Record<string, string>;
}

/** Reads every parameter sent but the dates: a cap, a refused cap, a counter, a flag, the offset, or unknown. */
const readParameters = (request: ChangeRequest, policy: CapPolicy): SentParameters => {
  const sent: SentParameters = { caps: new Map(), flags: {}, errors: dictionary(), ignored: dictionary() };
  const { errors, ignored } = sent;
  for (const name of request.names) {
    if (TRANSPORT_PARAMETERS.has(name)) continue;
    const text = request.get(name) ?? '';
    const cap = policy.grid.byName.get(name);
    if (cap) {
      const parsed = parseCapValue(cap, text);
      if (parsed.ok) sent.caps.set(cap, parsed.value);
      else errors[name] = parsed.reason;
    } else if (policy.refusedCaps.has(name)) {
      errors[name] = policy.refusedCaps.get(name)!;
    } else if (policy.allCounters.has(name)) {
      ignored[name] = COUNTER_REASON;
    } else if ((BOOLEAN_SETTINGS as readonly string[]).includes(name)) {
      const parsed = parseBooleanText(text);
      if (parsed.ok) sent.flags[name as BooleanSetting] = parsed.value;
      else errors[name] = parsed.reason;
    } else if (name === 'timezoneOffset') {
      const parsed = parseTimezoneOffset(text);
      if (parsed.ok) sent.timezoneOffset = parsed.value;
      else errors[name] = parsed.reason;
    } else if (!SETTINGS.has(name)) {
      ignored[echoedName(name)] = UNKNOWN_REASON;
    }
  }
  return sent;
};

interface SentDates {
  startDate?: number;
  endDate?: number;
}

/** The dates sent, read at the given offset (the limit's own when it uses local time); a bad one goes to `errors`. */
const readDates = (request: ChangeRequest, offset: number, errors: Record<string, string>): SentDates => {
  const dates: SentDates = {};
  for (const field of ['startDate', 'endDate'] as const) {
    const text = request.get(field);
    if (text === undefined) continue;
    const parsed = parseLimitDate(text, offset);
    if (parsed.ok) dates[field] = parsed.value;
    else
      errors[field] =
        parsed.reason === DATE_FORMATS_MESSAGE ? `${DATE_FORMATS_MESSAGE} (GMT+0 unless useLocalTime)` : parsed.reason;
  }
  return dates;
};

interface AppliedCaps {
  caps: Record<string, number>;
  /** The caps this change sets, which period conflicts are judged for. */
  applied: Set<string>;
}

/**
 * Merges the caps sent into the stored ones. A cap the caller may not change is ignored (noted in `ignored`) or,
 * where the policy refuses such a change, ends the plan as forbidden.
 */
const applyCaps = (
  current: LimitState,
  sentCaps: ReadonlyMap<CapDefinition, number>,
  policy: CapPolicy,
  ignored: Record<string, string>,
): AppliedCaps | Extract<ChangePlan, { outcome: 'forbidden' }> => {
  const caps = Object.assign({}, current.caps);
  const applied = new Set<string>();
  for (const [cap, value] of sentCaps) {
    const permission = policy.permissionOf(cap);
    // re-sending the stored value of a cap the caller sees changes nothing; a hidden cap is judged whatever is
    // stored, so that the answer never tells whether the value sent was the stored one
    if (permission !== 'DISABLED' && value === (current.caps[cap.name] ?? 0)) continue;
    if (permission !== 'ENABLED') {
      if (policy.forbiddenChange === 'refuse')
        return { outcome: 'forbidden', field: cap.name, permission: cap.permission };
      ignored[cap.name] = `not applied: changing it requires the "${cap.permission}" permission`;
      continue;
    }
    caps[cap.name] = value;
    applied.add(cap.name);
  }
  return { caps, applied };
};

/** An end before the start, when a date was sent: named on the date sent (endDate when both were). */
const dateOrderError = (sent: SentDates, startDate?: number, endDate?: number): Record<string, string> =>
  (sent.startDate !== undefined || sent.endDate !== undefined) &&
  startDate !== undefined &&
  endDate !== undefined &&
  endDate < startDate
    ? { [sent.endDate !== undefined ? 'endDate' : 'startDate']: 'endDate must not be before startDate' }
    : {};

/**
 * set.do and update.do: merges the request into the stored limit and validates the result, judging only what
 * the request sent. Pure: the caller loads, saves and answers.
 */
export const planLimitChange = (
  stored: LimitState | undefined,
  request: ChangeRequest,
  policy: CapPolicy,
): ChangePlan => {
  const current = stored ?? EMPTY_LIMIT;
  const sent = readParameters(request, policy);
  const useLocalTime = sent.flags.useLocalTime ?? current.useLocalTime;
  const offset = sent.timezoneOffset ?? current.timezoneOffset;
  const dates = readDates(request, useLocalTime ? offset : 0, sent.errors);
  if (Object.keys(sent.errors).length > 0) return { outcome: 'invalid', errors: sent.errors };

  const merged = applyCaps(current, sent.caps, policy, sent.ignored);
  if ('outcome' in merged) return merged;
  const { flags } = sent;
  const startDate = flags.removeStartDateLimit ? undefined : (dates.startDate ?? current.startDate);
  const endDate = flags.removeEndDateLimit ? undefined : (dates.endDate ?? current.endDate);
  const visible = (cap: CapDefinition) => policy.permissionOf(cap) !== 'DISABLED';
  const conflicts = Object.assign(
    periodConflicts(policy.grid, merged.caps, merged.applied, visible),
    dateOrderError(dates, startDate, endDate),
  );
  if (Object.keys(conflicts).length > 0) return { outcome: 'invalid', errors: conflicts };

  return {
    outcome: 'ok',
    next: {
      caps: merged.caps,
      ...(startDate !== undefined ? { startDate } : {}),
      ...(endDate !== undefined ? { endDate } : {}),
      evenPacing: flags.evenPacing ?? current.evenPacing,
      useLocalTime,
      timezoneOffset: offset,
    },
    ignored: sent.ignored,
  };
};
