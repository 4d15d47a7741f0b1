import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  bucketOf,
  isLaterPeriod,
  isoWeek,
  latestPeriod,
  periodBounds,
  periodOrdinal,
} from '../../../../shared/domain/limits/periods';

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

describe('period keys across years 1 to 9999', () => {
  const instant = fc.date({
    min: new Date('0001-01-01T00:00:00Z'),
    max: new Date('9999-12-31T23:59:59.999Z'),
    noInvalidDate: true,
  });

  it('write four-digit years and order as time does, as dates and as text', () => {
    expect(bucketOf('daily', new Date('0999-06-01T00:00:00Z'))).toBe('D#0999-06-01');
    expect(bucketOf('weekly', new Date('0050-03-01T00:00:00Z'))).toMatch(/^W#0050-W\d\d$/);
    expect(bucketOf('monthly', new Date('0001-01-31T00:00:00Z'))).toBe('M#0001-01');
    fc.assert(
      fc.property(instant, instant, fc.constantFrom('daily', 'weekly', 'monthly' as const), (a, b, period) => {
        const [earlier, later] = a <= b ? [a, b] : [b, a];
        const [first, second] = [bucketOf(period, earlier), bucketOf(period, later)];
        expect(periodOrdinal(first)).toBeLessThanOrEqual(periodOrdinal(second));
        expect(first <= second).toBe(true);
        expect(isLaterPeriod(second, first)).toBe(first !== second);
      }),
    );
  });

  it('number consecutive periods consecutively, and read keys written before years were padded', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom('daily', 'weekly', 'monthly' as const), (at, period) => {
        const [, end] = periodBounds(period, at);
        if (end > Date.parse('9999-12-31T00:00:00Z')) return;
        expect(periodOrdinal(bucketOf(period, new Date(end)))).toBe(periodOrdinal(bucketOf(period, at)) + 1);
      }),
    );
    expect(isLaterPeriod('D#2026-11-25', 'D#999-06-01')).toBe(true);
    expect(isLaterPeriod('M#2026-11', 'M#999-06')).toBe(true);
    expect(periodOrdinal('D#999-06-01')).toBe(periodOrdinal('D#0999-06-01'));
    expect(latestPeriod(['W#999-W22', 'W#2026-W48', 'W#2026-W47'])).toBe('W#2026-W48');
    expect(periodOrdinal('not a period')).toBe(-Infinity);
  });
});
