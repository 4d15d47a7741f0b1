import { describe, expect, it } from 'vitest';
import { planPerActionChange } from '../../../../shared/domain/per-action/per-action-change';

const plan = (
  stored: { dailyConversionsLimit: number; totalConversionsLimit: number } | undefined,
  fields: Record<string, string>,
) => planPerActionChange(stored, (name) => fields[name]);

describe('per-action change', () => {
  it('changes only the cap sent; a new limit starts uncapped', () => {
    expect(plan(undefined, { dailyConversionsLimit: '5' })).toEqual({
      outcome: 'ok',
      next: { dailyConversionsLimit: 5, totalConversionsLimit: 0 },
    });
    expect(plan({ dailyConversionsLimit: 5, totalConversionsLimit: 50 }, { totalConversionsLimit: '60' })).toEqual({
      outcome: 'ok',
      next: { dailyConversionsLimit: 5, totalConversionsLimit: 60 },
    });
  });

  it('refuses both caps absent, negatives and fractions', () => {
    expect(plan(undefined, {})).toMatchObject({ outcome: 'invalid' });
    expect(plan(undefined, { dailyConversionsLimit: '-1' })).toMatchObject({
      outcome: 'invalid',
      errors: { dailyConversionsLimit: expect.any(String) },
    });
    expect(plan(undefined, { totalConversionsLimit: '2.5' })).toMatchObject({
      outcome: 'invalid',
      errors: { totalConversionsLimit: expect.any(String) },
    });
  });

  it('refuses a daily cap above a non-zero total, judged against what will be stored', () => {
    expect(plan(undefined, { dailyConversionsLimit: '6', totalConversionsLimit: '5' })).toMatchObject({
      outcome: 'invalid',
      errors: { dailyConversionsLimit: expect.any(String) },
    });
    expect(plan({ dailyConversionsLimit: 0, totalConversionsLimit: 5 }, { dailyConversionsLimit: '6' })).toMatchObject({
      outcome: 'invalid',
    });
    expect(plan({ dailyConversionsLimit: 6, totalConversionsLimit: 0 }, { totalConversionsLimit: '5' })).toMatchObject({
      outcome: 'invalid',
      errors: { totalConversionsLimit: expect.any(String) },
    });
    expect(plan({ dailyConversionsLimit: 6, totalConversionsLimit: 9 }, { totalConversionsLimit: '0' })).toMatchObject({
      outcome: 'ok',
    });
  });
});
