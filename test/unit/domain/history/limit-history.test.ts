import { describe, expect, it } from 'vitest';
import {
  fieldChanges,
  limitChanges,
  visibleEntry,
  type HistoryEntry,
} from '../../../../shared/domain/history/limit-history';
import { DEMAND_GRID } from '../../../../shared/domain/limits/cap-grid';
import type { LimitState } from '../../../../shared/domain/limits/limit-record';

const state = (caps: Record<string, number>, extra: Partial<LimitState> = {}): LimitState => ({
  caps,
  evenPacing: false,
  useLocalTime: false,
  timezoneOffset: 0,
  ...extra,
});

const by = { userId: 1, username: 'admin', method: 'apiKey' };
const conversionsHidden = {
  grid: DEMAND_GRID,
  cap: (cap: { metric: string }) => cap.metric !== 'conversions',
  perAction: true,
};

describe('fieldChanges', () => {
  it('names each field whose value differs, absent values as null, and nothing when all are equal', () => {
    expect(fieldChanges({ a: 1, b: 2 }, { a: 1, b: 3, c: 4 })).toEqual({
      b: { from: 2, to: 3 },
      c: { from: null, to: 4 },
    });
    expect(fieldChanges({ a: 1 }, { a: 1 })).toEqual({});
  });
});

describe('limitChanges', () => {
  it('compares caps, dates in UTC and switches; a new record starts from the defaults, a deleted one ends there', () => {
    const before = state({ dailyClicksLimit: 10 });
    const after = state({ dailyClicksLimit: 20 }, { startDate: Date.parse('2026-06-10T06:00:00Z'), evenPacing: true });
    expect(limitChanges(before, after)).toEqual({
      dailyClicksLimit: { from: 10, to: 20 },
      startDate: { from: null, to: '2026-06-10-06-00' },
      evenPacing: { from: false, to: true },
    });
    expect(limitChanges(before, before)).toEqual({});
    // a record created with one cap lists that cap only: the settings the caller never sent keep their defaults
    expect(limitChanges(undefined, before)).toEqual({ dailyClicksLimit: { from: null, to: 10 } });
    expect(limitChanges(after, undefined)).toEqual({
      dailyClicksLimit: { from: 20, to: null },
      startDate: { from: '2026-06-10-06-00', to: null },
      evenPacing: { from: true, to: false },
    });
  });
});

describe('visibleEntry', () => {
  const update: HistoryEntry = {
    at: '2026-06-10T12:00:00Z',
    operation: 'update',
    by,
    fields: { dailyClicksLimit: { from: 1, to: 2 }, totalConversionsLimit: { from: 3, to: 4 } },
    ignoredFields: ['dailyConversionsLimit', 'dailyRequestsLimit'],
  };

  it('leaves out fields and ignored fields of hidden caps', () => {
    expect(visibleEntry(update, conversionsHidden)).toEqual({
      ...update,
      fields: { dailyClicksLimit: { from: 1, to: 2 } },
      ignoredFields: ['dailyRequestsLimit'],
    });
  });

  it('drops an entry that touched only hidden caps, and per-action entries when per-action limits are hidden', () => {
    const hiddenOnly: HistoryEntry = {
      ...update,
      fields: { totalConversionsLimit: { from: 3, to: 4 } },
      ignoredFields: [],
    };
    expect(visibleEntry(hiddenOnly, conversionsHidden)).toBeUndefined();
    // what the request merely sent keeps no entry alive, and a hidden cap's counter is not named either
    const sentAlong = { ...hiddenOnly, ignoredFields: ['dailyRequestsLimit', 'totalConversions'] };
    expect(visibleEntry(sentAlong, conversionsHidden)).toBeUndefined();
    expect(visibleEntry({ ...update, ignoredFields: ['totalConversions', 'dailyClicks'] }, conversionsHidden)).toEqual({
      ...update,
      fields: { dailyClicksLimit: { from: 1, to: 2 } },
      ignoredFields: ['dailyClicks'],
    });
    const reset: HistoryEntry = { at: update.at, operation: 'reset', by, limitCounters: ['DAILY_CONVERSIONS'] };
    expect(visibleEntry(reset, conversionsHidden)).toBeUndefined();
    expect(visibleEntry({ ...reset, limitCounters: ['DAILY_CONVERSIONS', 'ALL'] }, conversionsHidden)).toEqual({
      ...reset,
      limitCounters: ['ALL'],
    });
    const add: HistoryEntry = { at: update.at, operation: 'actionAdd', by, actionId: 7 };
    expect(visibleEntry(add, conversionsHidden)).toEqual(add);
    expect(visibleEntry(add, { ...conversionsHidden, perAction: false })).toBeUndefined();
    expect(
      visibleEntry({ ...reset, limitCounters: ['ALL_ACTION_LIMITS'] }, { ...conversionsHidden, perAction: false }),
    ).toBeUndefined();
  });
});
