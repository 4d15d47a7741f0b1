import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEMAND_GRID, SUPPLY_GRID } from '../../../../shared/domain/limits/cap-grid';
import { capPolicyAt, limitState } from '../../../support/domain-fixtures';
import type { PermissionLevel } from '../../../../shared/domain/permissions';
import { COUNTER_REASON, planLimitChange, UNKNOWN_REASON } from '../../../../shared/domain/limits/limit-change';
import type { LimitState } from '../../../../shared/domain/limits/limit-record';

const demand = (levels: Record<string, PermissionLevel> = {}) => capPolicyAt('campaign', levels);
const supply = (levels: Record<string, PermissionLevel> = {}) => capPolicyAt('site', levels);

const request = (fields: Record<string, string>) => ({
  names: Object.keys(fields),
  get: (name: string) => fields[name],
});

const stored = limitState;

describe('planning a limit change', () => {
  it('merges: fields left out keep their stored values', () => {
    const plan = planLimitChange(
      stored({ caps: { totalClicksLimit: 50 }, evenPacing: true }),
      request({ dailyImpressionsLimit: '10' }),
      demand(),
    );
    expect(plan).toEqual({
      outcome: 'ok',
      next: stored({ caps: { totalClicksLimit: 50, dailyImpressionsLimit: 10 }, evenPacing: true }),
      ignored: {},
    });
  });

  it('refuses a shorter-period cap above a non-zero longer one of the same metric, naming each field', () => {
    const plan = planLimitChange(
      undefined,
      request({
        dailyImpressionsLimit: '100',
        monthlyImpressionsLimit: '50',
        dailyClicksLimit: '9',
        weeklyClicksLimit: '8',
      }),
      demand(),
    );
    expect(plan).toEqual({
      outcome: 'invalid',
      errors: {
        dailyImpressionsLimit: expect.stringContaining('monthlyImpressionsLimit'),
        dailyClicksLimit: expect.stringContaining('weeklyClicksLimit'),
      },
    });
  });

  it('allows any shorter cap when the longer cap is 0', () => {
    expect(
      planLimitChange(
        stored({ caps: { totalImpressionsLimit: 0 } }),
        request({ dailyImpressionsLimit: '100' }),
        demand(),
      ).outcome,
    ).toBe('ok');
  });

  it('judges a lone cap against the stored ones: a daily cap above the stored total, or a total below the stored daily', () => {
    const current = stored({ caps: { totalImpressionsLimit: 100, dailyBudgetLimit: 5 } });
    expect(planLimitChange(current, request({ dailyImpressionsLimit: '101' }), demand())).toMatchObject({
      outcome: 'invalid',
      errors: { dailyImpressionsLimit: 'must not exceed totalImpressionsLimit (100)' },
    });
    expect(planLimitChange(current, request({ totalBudgetLimit: '4.999' }), demand())).toMatchObject({
      outcome: 'invalid',
      errors: { totalBudgetLimit: 'must not be below dailyBudgetLimit (5)' },
    });
  });

  it('does not let a stored inconsistency block an unrelated change', () => {
    const inconsistent = stored({ caps: { dailyClicksLimit: 500, totalClicksLimit: 10 } });
    expect(planLimitChange(inconsistent, request({ dailyImpressionsLimit: '7' }), demand()).outcome).toBe('ok');
  });

  it('ignores counters and unknown parameters with a reason, and skips transport parameters', () => {
    const plan = planLimitChange(
      undefined,
      request({
        dailyImpressions: '5',
        totalRequests: '1',
        dailyImpresionsLimit: '5',
        dailyRequestsLimit: '5',
        hash: 'x',
        username: 'u',
        timestamp: '1',
        dailyClicksLimit: '3',
      }),
      demand(),
    );
    expect(plan).toEqual({
      outcome: 'ok',
      next: stored({ caps: { dailyClicksLimit: 3 } }),
      ignored: {
        dailyImpressions: COUNTER_REASON,
        totalRequests: COUNTER_REASON,
        dailyImpresionsLimit: UNKNOWN_REASON,
        dailyRequestsLimit: UNKNOWN_REASON,
      },
    });
  });

  it('refuses bad values with a reason per parameter', () => {
    const plan = planLimitChange(
      undefined,
      request({
        dailyImpressionsLimit: '-1',
        dailyBudgetLimit: '1.2345',
        evenPacing: 'maybe',
        timezoneOffset: '900',
        startDate: '2026-13-01 00:00',
        endDate: 'tomorrow',
      }),
      demand(),
    );
    expect(plan.outcome).toBe('invalid');
    expect(Object.keys((plan as { errors: object }).errors).sort()).toEqual([
      'dailyBudgetLimit',
      'dailyImpressionsLimit',
      'endDate',
      'evenPacing',
      'startDate',
      'timezoneOffset',
    ]);
  });

  it('leaves a cap changed without its permission as stored and names the permission; saves the rest', () => {
    const policy = demand({ 'Daily Budget': 'READONLY', 'Total Clicks Limit': 'DISABLED' });
    const plan = planLimitChange(
      stored({ caps: { dailyBudgetLimit: 5 } }),
      request({ dailyBudgetLimit: '6', totalClicksLimit: '9', dailyImpressionsLimit: '4' }),
      policy,
    );
    expect(plan).toEqual({
      outcome: 'ok',
      next: stored({ caps: { dailyBudgetLimit: 5, dailyImpressionsLimit: 4 } }),
      ignored: {
        dailyBudgetLimit: expect.stringContaining('"Daily Budget"'),
        totalClicksLimit: expect.stringContaining('"Total Clicks Limit"'),
      },
    });
  });

  it('needs no permission to re-send a cap with the value it has', () => {
    const policy = demand({ 'Daily Budget': 'DISABLED' });
    expect(
      planLimitChange(stored({ caps: { dailyBudgetLimit: 5 } }), request({ dailyBudgetLimit: '5.000' }), policy),
    ).toMatchObject({ outcome: 'ok', ignored: {} });
    expect(planLimitChange(undefined, request({ dailyBudgetLimit: '0' }), policy)).toMatchObject({
      outcome: 'ok',
      ignored: {},
      next: { caps: {} },
    });
  });

  it('does not hold back caps the caller holds because of caps it does not hold', () => {
    const policy = demand({ 'Monthly Impressions Limit': 'DISABLED' });
    const plan = planLimitChange(
      stored({ caps: { monthlyImpressionsLimit: 100 } }),
      request({ dailyImpressionsLimit: '50', monthlyImpressionsLimit: '10' }),
      policy,
    );
    // the monthly change is ignored, so the daily cap is judged against the stored monthly cap of 100
    expect(plan).toMatchObject({
      outcome: 'ok',
      next: { caps: { dailyImpressionsLimit: 50, monthlyImpressionsLimit: 100 } },
    });
  });

  it('refuses the whole request with 403 on the supply side, and refuses demand-only caps with 400', () => {
    expect(
      planLimitChange(undefined, request({ dailyRequestsLimit: '5' }), supply({ 'Daily Requests Limit': 'READONLY' })),
    ).toEqual({
      outcome: 'forbidden',
      field: 'dailyRequestsLimit',
      permission: 'Daily Requests Limit',
    });
    expect(planLimitChange(undefined, request({ dailyBudgetLimit: '5' }), supply())).toMatchObject({
      outcome: 'invalid',
      errors: { dailyBudgetLimit: expect.any(String) },
    });
  });

  describe('dates', () => {
    const start = Date.UTC(2026, 11, 1, 0, 0);
    it('refuses an endDate before the stored startDate, naming endDate, and accepts equal dates', () => {
      expect(planLimitChange(stored({ startDate: start }), request({ endDate: '2026-11-30 23:59' }), demand())).toEqual(
        {
          outcome: 'invalid',
          errors: { endDate: expect.any(String) },
        },
      );
      expect(
        planLimitChange(stored({ startDate: start }), request({ endDate: '2026-12-01 00:00' }), demand()).outcome,
      ).toBe('ok');
    });

    it('lets remove*DateLimit win over a date sent in the same call', () => {
      const plan = planLimitChange(
        stored({ startDate: start, endDate: start + 1 }),
        request({ startDate: '2027-01-01 00:00', removeStartDateLimit: 'true', removeEndDateLimit: 'true' }),
        demand(),
      );
      expect(plan).toMatchObject({ outcome: 'ok' });
      expect((plan as { next: LimitState }).next.startDate).toBeUndefined();
      expect((plan as { next: LimitState }).next.endDate).toBeUndefined();
    });

    it('reads dates in timezoneOffset with useLocalTime, stores UTC, and never moves dates not sent', () => {
      const plan = planLimitChange(
        stored({ endDate: start }),
        request({ useLocalTime: 'true', timezoneOffset: '90', startDate: '2026-11-22 12:00' }),
        demand(),
      );
      expect(plan).toMatchObject({
        outcome: 'ok',
        next: { startDate: Date.UTC(2026, 10, 22, 10, 30), endDate: start, useLocalTime: true, timezoneOffset: 90 },
      });
      const later = planLimitChange(
        (plan as { next: LimitState }).next,
        request({ endDate: '2026-12-01 01:30' }),
        demand(),
      );
      expect(later).toMatchObject({ outcome: 'ok', next: { endDate: start, useLocalTime: true } });
    });

    it('keeps the stored useLocalTime when omitted, and reads UTC when it is off', () => {
      const plan = planLimitChange(
        stored({ useLocalTime: false, timezoneOffset: 120 }),
        request({ startDate: '2026-11-22 12:00' }),
        demand(),
      );
      expect(plan).toMatchObject({
        outcome: 'ok',
        next: { startDate: Date.UTC(2026, 10, 22, 12, 0), useLocalTime: false },
      });
    });
  });
});

describe('parameters named like Object.prototype members', () => {
  it('are listed as unknown like any other name', () => {
    // JSON.parse makes __proto__ an own key, as it is in an API Gateway event
    const fields = JSON.parse('{"__proto__":"x","constructor":"y","dailyClicksLimit":"1"}') as Record<string, string>;
    const plan = planLimitChange(
      undefined,
      { names: Object.keys(fields), get: (name) => (Object.hasOwn(fields, name) ? fields[name] : undefined) },
      demand(),
    );
    expect(plan.outcome).toBe('ok');
    expect(Object.keys((plan as { ignored: object }).ignored).sort()).toEqual(['__proto__', 'constructor'].sort());
  });
});

describe('caps the caller cannot see (no oracle)', () => {
  const judged = (plan: ReturnType<typeof planLimitChange>, hidden: ReadonlySet<string>) =>
    plan.outcome === 'ok'
      ? {
          outcome: plan.outcome,
          ignored: plan.ignored,
          visibleCaps: Object.entries(plan.next.caps).filter(([name]) => !hidden.has(name)),
        }
      : plan;

  it.each([
    ['campaign', DEMAND_GRID],
    ['site', SUPPLY_GRID],
  ] as const)(
    '%s: the answer to a write is the same whatever the hidden caps hold (seed printed on failure)',
    (level, grid) => {
      const capValue = fc.integer({ min: 0, max: 5000 });
      fc.assert(
        fc.property(
          fc.subarray([...grid.caps], { minLength: 1 }),
          fc.dictionary(fc.constantFrom(...grid.caps.map((cap) => cap.name)), capValue, { maxKeys: 8 }),
          fc.array(capValue, { minLength: grid.caps.length, maxLength: grid.caps.length }),
          fc.array(capValue, { minLength: grid.caps.length, maxLength: grid.caps.length }),
          (hiddenCaps, sent, storedOnce, storedTwice) => {
            const hidden = new Set(hiddenCaps.map((cap) => cap.name));
            const policy = capPolicyAt(
              level,
              Object.fromEntries(hiddenCaps.map((cap) => [cap.permission, 'DISABLED' as const])),
            );
            // the caller sends only caps it can see; the hidden ones hold one set of values or another
            const visibleSent = Object.fromEntries(
              Object.entries(sent)
                .filter(([name]) => !hidden.has(name))
                .map(([name, value]) => [name, String(value)]),
            );
            const storedWith = (values: number[]) =>
              stored({ caps: Object.fromEntries(grid.caps.map((cap, index) => [cap.name, values[index]!])) });
            const withHidden = (values: number[]) => {
              const state = storedWith(values);
              const visibleValues = storedWith(storedOnce).caps;
              for (const name of Object.keys(state.caps))
                if (!hidden.has(name)) state.caps[name] = visibleValues[name]!;
              return state;
            };
            expect(judged(planLimitChange(withHidden(storedOnce), request(visibleSent), policy), hidden)).toEqual(
              judged(planLimitChange(withHidden(storedTwice), request(visibleSent), policy), hidden),
            );
          },
        ),
      );
    },
  );
});
