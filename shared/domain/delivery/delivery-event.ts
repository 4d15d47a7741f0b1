import { unitsFromText } from './exact-units';

// Checked by hand rather than with a schema library: the recorder parses every message, and zod (even zod/mini)
// cost its bundle 24 KB and some 5 ms of every cold start, a third of its margin over the smallest function.

export const DELIVERY_KINDS = ['impression', 'click', 'conversion', 'opportunity', 'request'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

export interface DeliveryEvent {
  kind: DeliveryKind;
  bannerId?: number;
  placementId?: number;
  actionId?: number;
  /** A decimal with at most three places, as a string (sent as a string or a number that prints as one). */
  revenue?: string;
  count: number;
  /** When it happened (ms since 1970), parsed once from the ISO-8601 `at` sent; the message's sending time when absent. */
  at?: number;
}

const FIELDS = new Set(['kind', 'bannerId', 'placementId', 'actionId', 'revenue', 'count', 'at']);
const REVENUE = /^\d{1,13}(\.\d{1,3})?$/;
/** RFC 3339: seconds always, fractions optional, `Z` or an offset. */
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.(\d+))?(?:Z|([+-])([01]\d|2[0-3]):([0-5]\d))$/;
const MAX_COUNT = 1_000_000;

const daysIn = (year: number, month: number): number =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;

/** The instant an RFC 3339 text names (ms), for every year it can write (0000–9999); `undefined` if none. */
const instantOf = (value: unknown): number | undefined => {
  const match = typeof value === 'string' ? INSTANT.exec(value) : null;
  if (!match) return undefined;
  const [year, month, day, hours, minutes, seconds] = match.slice(1, 7).map(Number) as number[];
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysIn(year!, month!)) return undefined;
  const instant = new Date(0);
  instant.setUTCFullYear(year!, month! - 1, day!);
  instant.setUTCHours(hours!, minutes!, seconds!, Number((match[7] ?? '').slice(0, 3).padEnd(3, '0')));
  const offset = match[8] === undefined ? 0 : (Number(match[9]) * 60 + Number(match[10])) * 60_000;
  return instant.getTime() - (match[8] === '-' ? -offset : offset);
};

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

const countProblem = (count: unknown): string | undefined => {
  if (!Number.isSafeInteger(count)) return `count must be a whole number from 1 to ${MAX_COUNT}`;
  if ((count as number) < 1) return 'count must be at least 1';
  return (count as number) > MAX_COUNT ? `count must be at most ${MAX_COUNT}` : undefined;
};

const revenueText = (revenue: unknown): string | undefined =>
  typeof revenue === 'string' || typeof revenue === 'number' ? String(revenue) : undefined;

export type ParsedEvent = { ok: true; event: DeliveryEvent } | { ok: false; field?: string; message: string };

const refused = (message: string, field?: string): ParsedEvent => ({
  ok: false,
  message,
  ...(field !== undefined ? { field } : {}),
});

/** One event, checked field by field in a fixed order; the first problem is the answer. */
export const parseDeliveryEvent = (value: unknown): ParsedEvent => {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return refused('an event must be a JSON object');
  const fields = value as Record<string, unknown>;
  const { kind, bannerId, placementId, actionId, revenue, count = 1, at } = fields;
  if (!DELIVERY_KINDS.includes(kind as DeliveryKind))
    return refused(`kind must be one of ${DELIVERY_KINDS.join(', ')}`, 'kind');
  for (const [name, id] of Object.entries({ bannerId, placementId, actionId }))
    if (id !== undefined && !isId(id)) return refused(`${name} must be a positive integer`, name);
  const revenueValue = revenueText(revenue);
  if (revenue !== undefined && revenueValue === undefined)
    return refused('revenue must be a decimal string', 'revenue');
  if (revenueValue !== undefined && !REVENUE.test(revenueValue))
    return refused('revenue must be a non-negative decimal with at most 3 places', 'revenue');
  const problem = countProblem(count);
  if (problem) return refused(problem, 'count');
  const instant = instantOf(at);
  if (at !== undefined && instant === undefined) return refused('at must be an ISO-8601 instant', 'at');
  const unknown = Object.keys(fields).filter((name) => !FIELDS.has(name));
  if (unknown.length > 0) return refused(`unknown field ${unknown.join(', ')}`);
  if (bannerId === undefined && placementId === undefined) return refused('bannerId or placementId is required');
  if (kind === 'request' && placementId === undefined)
    return refused('request events count on the supply side only: placementId is required');
  if (actionId !== undefined && kind !== 'conversion') return refused('actionId goes with conversion events only');
  return {
    ok: true,
    event: {
      kind: kind as DeliveryKind,
      ...(bannerId !== undefined ? { bannerId: bannerId as number } : {}),
      ...(placementId !== undefined ? { placementId: placementId as number } : {}),
      ...(actionId !== undefined ? { actionId: actionId as number } : {}),
      ...(revenueValue !== undefined ? { revenue: revenueValue } : {}),
      count: count as number,
      ...(instant !== undefined ? { at: instant } : {}),
    },
  };
};

/** Revenue in thousandths, a BigInt, so that sums are exact: 1,000 × "0.001" is exactly 1000. */
export const revenueMillis = (revenue: string | undefined): bigint =>
  revenue === undefined ? 0n : unitsFromText(revenue, 1000n);

/**
 * The largest budget one event may add, revenue × count: 9,999,999,999,999.999 (16 significant digits). Anything
 * larger is refused at ingestion, so that no counter is ever fed a value nobody meant.
 */
export const MAX_EVENT_BUDGET_MILLIS = 9_999_999_999_999_999n;

const eventProblem = (event: DeliveryEvent): string | undefined =>
  revenueMillis(event.revenue) * BigInt(event.count) > MAX_EVENT_BUDGET_MILLIS
    ? 'revenue × count must be at most 9999999999999.999'
    : undefined;

const DAY_MS = 86_400_000;

/**
 * The accepted window of an event's `at`, around its message's sending time (see docs/exactly-once.md): from 14 days
 * before it (SQS keeps a message 14 days, the redelivery horizon) to 1 day after it (a clock a day off, say a local
 * time written as UTC, is still a clock: past the future tolerance such an event counts at the sending time). An
 * event outside it is a wrong date, and its message is dead-lettered: it never counts in any period.
 */
export const ACCEPTED_BEFORE_SENDING_MS = 14 * DAY_MS;
export const ACCEPTED_AFTER_SENDING_MS = DAY_MS;

export const isInAcceptedWindow = (at: number, sentAt: number): boolean =>
  at >= sentAt - ACCEPTED_BEFORE_SENDING_MS && at <= sentAt + ACCEPTED_AFTER_SENDING_MS;

const windowProblem = (at: number, sentAt: number): string =>
  `at ${new Date(at).toISOString()} is outside the accepted window, from 14 days before to 1 day after the ` +
  `message was sent (${new Date(sentAt).toISOString()}): not counted in any period`;

export type ParsedMessage = { ok: true; events: DeliveryEvent[] } | { ok: false; reason: string };

/**
 * One SQS message holds one event or an array of events; any invalid event, or one dated outside the accepted window
 * around `sentAt` (ms), makes the whole message malformed.
 */
export const parseDeliveryMessage = (body: string, sentAt: number): ParsedMessage => {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'body is not JSON' };
  }
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) return { ok: false, reason: 'empty array' };
  const events: DeliveryEvent[] = [];
  for (const [index, item] of list.entries()) {
    const parsed = parseDeliveryEvent(item);
    if (!parsed.ok) {
      const where = [Array.isArray(value) ? `[${index}]` : '', parsed.field ?? ''].filter(Boolean).join('.');
      return { ok: false, reason: `${where ? `${where}: ` : ''}${parsed.message}` };
    }
    const { at } = parsed.event;
    const problem =
      eventProblem(parsed.event) ??
      (at !== undefined && !isInAcceptedWindow(at, sentAt) ? windowProblem(at, sentAt) : undefined);
    if (problem) return { ok: false, reason: `${Array.isArray(value) ? `[${index}]: ` : ''}${problem}` };
    events.push(parsed.event);
  }
  return { ok: true, events };
};
