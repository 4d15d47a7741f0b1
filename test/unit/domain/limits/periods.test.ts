import { describe, expect, it } from 'vitest';
import { bucketOf, isoWeek, periodBounds } from '../../../../shared/domain/limits/periods';

describe('period buckets', () => {
  it('rolls daily at UTC midnight, weekly on Monday (ISO), monthly on the 1st', () => {
    expect(bucketOf('daily', new Date('2026-11-22T23:59:59Z'))).toBe('D#2026-11-22');
    expect(bucketOf('daily', new Date('2026-11-23T00:00:00Z'))).toBe('D#2026-11-23');
    // Sunday 2026-11-22 is in week 47, Monday 2026-11-23 starts week 48
    expect(bucketOf('weekly', new Date('2026-11-22T23:59:59Z'))).toBe('W#2026-W47');
    expect(bucketOf('weekly', new Date('2026-11-23T00:00:00Z'))).toBe('W#2026-W48');
    expect(bucketOf('monthly', new Date('2026-11-30T23:59:59Z'))).toBe('M#2026-11');
    expect(bucketOf('monthly', new Date('2026-12-01T00:00:00Z'))).toBe('M#2026-12');
    expect(bucketOf('total', new Date())).toBe('T');
  });

  it('puts the turn of the year into the right ISO year', () => {
    expect(isoWeek(new Date('2026-12-31T12:00:00Z'))).toEqual({ year: 2026, week: 53 });
    expect(isoWeek(new Date('2027-01-03T12:00:00Z'))).toEqual({ year: 2026, week: 53 });
    expect(isoWeek(new Date('2027-01-04T12:00:00Z'))).toEqual({ year: 2027, week: 1 });
    expect(isoWeek(new Date('2024-12-30T12:00:00Z'))).toEqual({ year: 2025, week: 1 });
  });

  it('bounds the UTC day, the ISO week from Monday and the calendar month', () => {
    expect(periodBounds('weekly', new Date('2026-06-10T12:00:00Z')).map((ms) => new Date(ms).toISOString())).toEqual([
      '2026-06-08T00:00:00.000Z',
      '2026-06-15T00:00:00.000Z',
    ]);
    expect(periodBounds('monthly', new Date('2026-02-14T00:00:00Z')).map((ms) => new Date(ms).toISOString())).toEqual([
      '2026-02-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
    ]);
  });

  it('bounds exactly the instants of one bucket', () => {
    for (const instant of [
      '2026-06-10T12:00:00Z',
      '2027-01-03T23:59:59Z',
      '2024-02-29T00:00:00Z',
      '2026-12-31T23:00:00Z',
    ])
      for (const period of ['daily', 'weekly', 'monthly'] as const) {
        const now = new Date(instant);
        const [start, end] = periodBounds(period, now);
        expect(bucketOf(period, new Date(start))).toBe(bucketOf(period, now));
        expect(bucketOf(period, new Date(end - 1))).toBe(bucketOf(period, now));
        expect(bucketOf(period, new Date(start - 1))).not.toBe(bucketOf(period, now));
        expect(bucketOf(period, new Date(end))).not.toBe(bucketOf(period, now));
      }
  });
});
