import type { Period } from './metrics';

const DAY_MS = 86_400_000;
const two = (value: number): string => String(value).padStart(2, '0');
/** Years as four digits (`0999`), so that keys of years 1–9999 never misorder, even read as text. */
const four = (value: number): string => String(value).padStart(4, '0');

/** Midnight UTC of a calendar date, for any year (`Date.UTC` reads the years 0–99 as 1900–1999). */
const utcDate = (year: number, monthIndex: number, day: number): number => {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  return date.getTime();
};

/** ISO-8601 week of a UTC instant: weeks start on Monday; week 1 holds the year's first Thursday. */
export const isoWeek = (instant: Date): { year: number; week: number } => {
  const day = Math.floor(instant.getTime() / DAY_MS) * DAY_MS;
  const thursday = day + (3 - ((new Date(day).getUTCDay() + 6) % 7)) * DAY_MS;
  const year = new Date(thursday).getUTCFullYear();
  return { year, week: Math.floor((thursday - utcDate(year, 0, 1)) / DAY_MS / 7) + 1 };
};

/** The UTC day, ISO week (from Monday) or calendar month holding `now`, as [start, end) in ms. */
export const periodBounds = (period: Exclude<Period, 'total'>, now: Date): [number, number] => {
  const day = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  if (period === 'daily') return [day, day + DAY_MS];
  if (period === 'weekly') {
    const monday = day - ((now.getUTCDay() + 6) % 7) * DAY_MS;
    return [monday, monday + 7 * DAY_MS];
  }
  return [utcDate(now.getUTCFullYear(), now.getUTCMonth(), 1), utcDate(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)];
};

/**
 * The bucket of a period that holds `instant` (UTC): `D#2026-11-22`, `W#2026-W47`, `M#2026-11`, `T`.
 * Rollover needs no job: a new period is a new bucket, and a bucket not yet written reads as 0.
 */
export const bucketOf = (period: Period, instant: Date): string => {
  const year = four(instant.getUTCFullYear());
  const month = two(instant.getUTCMonth() + 1);
  switch (period) {
    case 'daily':
      return `D#${year}-${month}-${two(instant.getUTCDate())}`;
    case 'weekly': {
      const week = isoWeek(instant);
      return `W#${four(week.year)}-W${two(week.week)}`;
    }
    case 'monthly':
      return `M#${year}-${month}`;
    case 'total':
      return 'T';
  }
};

const DAY_KEY = /^D#(\d{1,4})-(\d{2})-(\d{2})$/;
const WEEK_KEY = /^W#(\d{1,4})-W(\d{2})$/;
const MONTH_KEY = /^M#(\d{1,4})-(\d{2})$/;

/**
 * A bucket's place in time: days, Mondays (in weeks) or months counted from a fixed origin, so that a later period
 * always has the larger number. Keys stored before years were padded (`D#999-06-01`) read as the years they name.
 * Anything else (not a bucket this service writes) is -Infinity: older than every period.
 */
export const periodOrdinal = (key: string): number => {
  const day = DAY_KEY.exec(key);
  if (day) return utcDate(Number(day[1]), Number(day[2]) - 1, Number(day[3])) / DAY_MS;
  const week = WEEK_KEY.exec(key);
  if (week) {
    const january4 = utcDate(Number(week[1]), 0, 4);
    const firstMonday = january4 - ((new Date(january4).getUTCDay() + 6) % 7) * DAY_MS;
    // days since 1970-01-01 (a Thursday); a Monday's + 3 is a multiple of 7
    return (firstMonday / DAY_MS + (Number(week[2]) - 1) * 7 + 3) / 7;
  }
  const month = MONTH_KEY.exec(key);
  if (month) return Number(month[1]) * 12 + Number(month[2]) - 1;
  return key === 'T' ? 0 : -Infinity;
};

/** Whether bucket `a` is a later period than bucket `b` (of the same period kind): compared as dates, not as text. */
export const isLaterPeriod = (a: string, b: string): boolean => periodOrdinal(a) > periodOrdinal(b);

/** The latest of some buckets of one period kind; `undefined` when there are none. */
export const latestPeriod = (keys: Iterable<string>): string | undefined => {
  let latest: string | undefined;
  for (const key of keys) if (latest === undefined || isLaterPeriod(key, latest)) latest = key;
  return latest;
};
