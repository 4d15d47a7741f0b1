import type { Parsed } from './cap-values';

export const DATE_FORMATS_MESSAGE = 'must be a date in the format yyyy-MM-dd-HH-mm or yyyy-MM-dd HH:mm';
export const MIN_TIMEZONE_OFFSET = -840;
/** Run dates have four-digit years: from 1000-01-01 00:00 to 9999-12-31 23:59, as sent and in UTC. */
const EARLIEST = Date.UTC(1000, 0, 1, 0, 0);
const LATEST = Date.UTC(9999, 11, 31, 23, 59);
const YEARS_MESSAGE = 'must be a date from 1000-01-01-00-00 to 9999-12-31-23-59';
export const MAX_TIMEZONE_OFFSET = 840;

/** Both accepted shapes of a run date: `yyyy-MM-dd-HH-mm` and `yyyy-MM-dd HH:mm`. */
export const LIMIT_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:-(\d{2})-(\d{2})| (\d{2}):(\d{2}))$/;

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * A run date as sent, read in `offsetMinutes` east of UTC, as epoch milliseconds UTC. Strict: month 13,
 * February 30 or hour 24 is refused, never rolled over.
 */
export const parseLimitDate = (text: string, offsetMinutes: number): Parsed<number> => {
  const match = LIMIT_DATE_PATTERN.exec(text);
  if (!match) return { ok: false, reason: DATE_FORMATS_MESSAGE };
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const hour = Number(match[4] ?? match[6]);
  const minute = Number(match[5] ?? match[7]);
  if (year < 1000) return { ok: false, reason: YEARS_MESSAGE };
  if (month < 1 || month > 12) return { ok: false, reason: `is not a real date: month ${match[2]} does not exist` };
  if (day < 1 || day > daysInMonth(year, month))
    return { ok: false, reason: `is not a real date: day ${match[3]} does not exist in that month` };
  if (hour > 23) return { ok: false, reason: 'is not a real time: hour must be 00 to 23' };
  if (minute > 59) return { ok: false, reason: 'is not a real time: minute must be 00 to 59' };
  const instant = Date.UTC(year, month - 1, day, hour, minute) - offsetMinutes * 60_000;
  if (instant < EARLIEST || instant > LATEST) return { ok: false, reason: `${YEARS_MESSAGE} (also in UTC)` };
  return { ok: true, value: instant };
};

const two = (value: number): string => String(value).padStart(2, '0');

/** Renders an instant as `yyyy-MM-dd-HH-mm` in `offsetMinutes` east of UTC: the format clients send back. */
export const formatLimitDate = (epochMs: number, offsetMinutes = 0): string => {
  // a date near either end, shown in an offset, is held at the end so that it keeps the shape clients send back
  const local = new Date(Math.min(LATEST, Math.max(EARLIEST, epochMs + offsetMinutes * 60_000)));
  return `${local.getUTCFullYear()}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}-${two(local.getUTCHours())}-${two(local.getUTCMinutes())}`;
};

export const parseTimezoneOffset = (text: string): Parsed<number> => {
  if (!/^[+-]?\d{1,4}$/.test(text)) return { ok: false, reason: 'must be a whole number of minutes from -840 to 840' };
  const value = Number(text);
  if (value < MIN_TIMEZONE_OFFSET || value > MAX_TIMEZONE_OFFSET)
    return { ok: false, reason: 'must be from -840 to 840 minutes' };
  return { ok: true, value };
};
