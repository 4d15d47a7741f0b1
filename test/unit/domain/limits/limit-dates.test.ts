import { describe, expect, it } from 'vitest';
import { formatLimitDate, parseLimitDate, parseTimezoneOffset } from '../../../../shared/domain/limits/limit-dates';

describe('limit dates', () => {
  it('reads both formats in UTC and strictly', () => {
    expect(parseLimitDate('2026-11-22-10-30', 0)).toEqual({ ok: true, value: Date.UTC(2026, 10, 22, 10, 30) });
    expect(parseLimitDate('2026-11-22 10:30', 0)).toEqual({ ok: true, value: Date.UTC(2026, 10, 22, 10, 30) });
    expect(parseLimitDate('2028-02-29 00:00', 0).ok).toBe(true);
    for (const bad of [
      '2026-13-01 00:00',
      '2026-02-29 00:00',
      '2026-02-30-00-00',
      '2026-11-22 24:00',
      '2026-11-22 10:60',
      '2026-04-31 00:00',
    ])
      expect(parseLimitDate(bad, 0)).toMatchObject({ ok: false, reason: expect.stringContaining('real') });
  });

  it('names both formats when the shape is wrong', () => {
    for (const bad of ['2026-11-22', '2026-11-22T10:30', '22.11.2026 10:30', '2026-11-22 10-30', '', '2026-1-2 1:2'])
      expect(parseLimitDate(bad, 0)).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/yyyy-MM-dd-HH-mm.*yyyy-MM-dd HH:mm/),
      });
  });

  it('reads local dates in the offset and stores UTC: 12:00 at +90 is 10:30 UTC', () => {
    expect(parseLimitDate('2026-11-22 12:00', 90)).toEqual({ ok: true, value: Date.UTC(2026, 10, 22, 10, 30) });
    expect(parseLimitDate('2026-11-22 00:30', -60)).toEqual({ ok: true, value: Date.UTC(2026, 10, 22, 1, 30) });
  });

  it('renders yyyy-MM-dd-HH-mm, in an offset when asked', () => {
    const instant = Date.UTC(2026, 10, 22, 10, 30);
    expect(formatLimitDate(instant)).toBe('2026-11-22-10-30');
    expect(formatLimitDate(instant, 90)).toBe('2026-11-22-12-00');
    expect(formatLimitDate(instant, -840)).toBe('2026-11-21-20-30');
  });

  it('takes offsets from -840 to 840 minutes', () => {
    expect(parseTimezoneOffset('-840')).toEqual({ ok: true, value: -840 });
    expect(parseTimezoneOffset('840')).toEqual({ ok: true, value: 840 });
    for (const bad of ['841', '-841', '1.5', 'x', '']) expect(parseTimezoneOffset(bad).ok, bad).toBe(false);
  });
});

describe('four-digit years', () => {
  it('refuse a year below 1000 as sent, or outside 1000–9999 once converted to UTC', () => {
    expect(parseLimitDate('0026-11-22-10-00', 0)).toEqual({ ok: false, reason: expect.stringContaining('1000-01-01') });
    expect(parseLimitDate('9999-12-31-23-59', -840)).toEqual({ ok: false, reason: expect.stringContaining('UTC') });
    expect(parseLimitDate('1000-01-01-05-00', 840)).toEqual({ ok: false, reason: expect.stringContaining('UTC') });
    expect(parseLimitDate('9999-12-31-23-59', 0)).toMatchObject({ ok: true });
    expect(parseLimitDate('1000-01-01-00-00', 0)).toMatchObject({ ok: true });
  });

  it('render every date in the yyyy-MM-dd-HH-mm shape, whatever the offset', () => {
    const latest = (parseLimitDate('9999-12-31-23-59', 0) as { value: number }).value;
    expect(formatLimitDate(latest, 840)).toBe('9999-12-31-23-59');
    const earliest = (parseLimitDate('1000-01-01-00-00', 0) as { value: number }).value;
    expect(formatLimitDate(earliest, -840)).toBe('1000-01-01-00-00');
    expect(formatLimitDate(Date.UTC(2026, 10, 22, 10, 30), 90)).toBe('2026-11-22-12-00');
  });
});
