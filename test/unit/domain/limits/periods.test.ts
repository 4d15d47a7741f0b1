import { describe, expect, it } from 'vitest';
import { bucketOf, isoWeek } from '../../../../shared/domain/limits/periods';

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
});
