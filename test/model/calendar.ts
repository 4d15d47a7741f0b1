/**
 * The periods an instant counts in, written out from their definitions (UTC day, ISO week from Monday, calendar
 * month, total) rather than taken from the service, so that the model checks the service's calendar too.
 */
export const MODEL_PERIODS = ['daily', 'weekly', 'monthly', 'total'] as const;
export type ModelPeriod = (typeof MODEL_PERIODS)[number];

const DAY_MS = 86_400_000;
const two = (n: number) => String(n).padStart(2, '0');

/** ISO 8601: the week belongs to the year of its Thursday; week 1 holds the year's first Thursday. */
const isoWeek = (ms: number): { year: number; week: number } => {
  const dayStart = Math.floor(ms / DAY_MS) * DAY_MS;
  const mondayBased = (new Date(dayStart).getUTCDay() + 6) % 7;
  const thursday = dayStart + (3 - mondayBased) * DAY_MS;
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(year, 0, 1)) / DAY_MS / 7) + 1;
  return { year, week };
};

export const periodKey = (period: ModelPeriod, ms: number): string => {
  const date = new Date(ms).toISOString();
  if (period === 'daily') return `D#${date.slice(0, 10)}`;
  if (period === 'monthly') return `M#${date.slice(0, 7)}`;
  if (period === 'total') return 'T';
  const { year, week } = isoWeek(ms);
  return `W#${year}-W${two(week)}`;
};
