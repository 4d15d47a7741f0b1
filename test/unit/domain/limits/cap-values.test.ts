import { describe, expect, it } from 'vitest';
import { DEMAND_GRID, SUPPLY_GRID, type CapDefinition } from '../../../../shared/domain/limits/cap-grid';
import { parseCapValue } from '../../../../shared/domain/limits/cap-values';

const cap = (name: string): CapDefinition => DEMAND_GRID.byName.get(name) ?? SUPPLY_GRID.byName.get(name)!;

describe('cap values', () => {
  const ok = (name: string, text: string) => parseCapValue(cap(name), text);
  it('takes whole counts from 0 to 4,000,000,000', () => {
    expect(ok('dailyImpressionsLimit', '0')).toEqual({ ok: true, value: 0 });
    expect(ok('dailyImpressionsLimit', '4000000000')).toEqual({ ok: true, value: 4_000_000_000 });
    for (const bad of ['4000000001', '-1', '1.5', '1e3', '', ' 1', 'abc', '+1', '0x10', '99999999999'])
      expect(ok('dailyImpressionsLimit', bad).ok, bad).toBe(false);
  });

  it('takes budgets with at most three decimals up to 9,999,999,999.999, exactly', () => {
    expect(ok('dailyBudgetLimit', '9999999999.999')).toEqual({ ok: true, value: 9999999999.999 });
    expect(String(9999999999.999)).toBe('9999999999.999');
    expect(ok('dailyBudgetLimit', '0.001')).toEqual({ ok: true, value: 0.001 });
    expect(ok('dailyBudgetLimit', '12.50')).toEqual({ ok: true, value: 12.5 });
    for (const bad of ['0.0001', '-0.5', '10000000000', '1e2', '.5', '5.', 'NaN', 'Infinity'])
      expect(ok('dailyBudgetLimit', bad).ok, bad).toBe(false);
  });
});
