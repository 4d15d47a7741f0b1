import type { Period } from './cap-axes';

const two = (value: number): string => String(value).padStart(2, '0');

/** ISO-8601 week of a UTC instant: weeks start on Monday; week 1 holds the year's first Thursday. */
export const isoWeek = (instant: Date): { year: number; week: number } => {
  const day = new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  return { year: day.getUTCFullYear(), week: Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7) };
};

/** The UTC day, ISO week (from Monday) or calendar month holding `now`, as [start, end) in ms. */
export const periodBounds = (period: Exclude<Period, 'total'>, now: Date): [number, number] => {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (period === 'daily') return [day, day + 86_400_000];
  if (period === 'weekly') {
    const monday = day - ((now.getUTCDay() + 6) % 7) * 86_400_000;
    return [monday, monday + 7 * 86_400_000];
  }
  return [
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1),
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1),
  ];
};

/**
 * The bucket of a period that holds `instant` (UTC): `D#2026-11-22`, `W#2026-W47`, `M#2026-11`, `T`.
 * Rollover needs no job: a new period is a new bucket, and a bucket not yet written reads as 0.
 */
export const bucketOf = (period: Period, instant: Date): string => {
  const year = instant.getUTCFullYear();
  const month = two(instant.getUTCMonth() + 1);
  switch (period) {
    case 'daily':
      return `D#${year}-${month}-${two(instant.getUTCDate())}`;
    case 'weekly': {
      const week = isoWeek(instant);
      return `W#${week.year}-W${two(week.week)}`;
    }
    case 'monthly':
      return `M#${year}-${month}`;
    case 'total':
      return 'T';
  }
};

/** When a bucket may be removed by TTL: well after its period ends; the total bucket never. */
export const bucketExpiry = (period: Period, instant: Date): number | undefined => {
  const days = { daily: 3, weekly: 15, monthly: 63, total: undefined }[period];
  return days === undefined ? undefined : Math.ceil(instant.getTime() / 1000) + days * 86_400;
};
