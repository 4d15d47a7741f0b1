import { describe, expect, it } from 'vitest';
import { currentCounters, latestTwo } from '../../../../shared/domain/delivery/counter-state';
import { counterStateWith } from './counter-state-fixture';

/**
 * An item that an event dated 00:02 on Monday the 23rd, received at 23:57 on Sunday, moved into the next day and
 * week: the 22nd and its week are its previous ones.
 */
const moved = counterStateWith({
  keys: { daily: 'D#2026-11-23', weekly: 'W#2026-W48', monthly: 'M#2026-11', total: 'T' },
  counters: {
    daily: { impressions: 1n },
    weekly: { impressions: 1n },
    monthly: { impressions: 61n },
    total: { impressions: 61n },
  },
  previous: {
    daily: { key: 'D#2026-11-22', tally: { impressions: 60n } },
    weekly: { key: 'W#2026-W47', tally: { impressions: 60n } },
  },
});

describe('the counters that count at an instant', () => {
  it("are, per period, the slot that holds the instant's period, current or previous", () => {
    expect(currentCounters(moved, new Date('2026-11-22T23:58:00Z'))).toEqual({
      daily: { impressions: 60n },
      weekly: { impressions: 60n },
      monthly: { impressions: 61n },
      total: { impressions: 61n },
    });
    expect(currentCounters(moved, new Date('2026-11-23T00:03:00Z'))).toEqual({
      daily: { impressions: 1n },
      weekly: { impressions: 1n },
      monthly: { impressions: 61n },
      total: { impressions: 61n },
    });
  });

  it('read 0 for a period the item holds in neither slot', () => {
    expect(currentCounters(moved, new Date('2026-11-21T12:00:00Z')).daily).toBeUndefined();
    expect(currentCounters(moved, new Date('2026-11-24T12:00:00Z')).daily).toBeUndefined();
  });

  it('of an item written before it kept a previous period read as they did', () => {
    const old = counterStateWith({ keys: { daily: 'D#2026-11-22' }, counters: { daily: { clicks: 3n } } });
    expect(currentCounters(old, new Date('2026-11-22T10:00:00Z'))).toEqual({ daily: { clicks: 3n } });
    expect(currentCounters(old, new Date('2026-11-23T10:00:00Z'))).toEqual({});
  });
});

describe('the two latest periods', () => {
  it('are ordered as dates, latest first, whatever the order given, repeats counted once', () => {
    expect(latestTwo(['D#2026-11-22', 'D#2026-11-24', 'D#2026-11-23', 'D#2026-11-24'])).toEqual([
      'D#2026-11-24',
      'D#2026-11-23',
    ]);
    expect(latestTwo(['M#2026-12', 'M#2027-01'])).toEqual(['M#2027-01', 'M#2026-12']);
    expect(latestTwo(['W#2026-W53', 'W#2027-W01', 'W#2026-W52'])).toEqual(['W#2027-W01', 'W#2026-W53']);
    expect(latestTwo(['D#999-06-01', 'D#2026-11-22'])).toEqual(['D#2026-11-22', 'D#999-06-01']);
    expect(latestTwo([])).toEqual([]);
  });
});
