import { describe, expect, it } from 'vitest';
import { counterWriteRequest, zeroCountersRequest } from '../../../shared/adapters/dynamodb/counter-requests';
import { CAPS_ATTRIBUTE, counterAttribute } from '../../../shared/adapters/dynamodb/counter-attributes';
import { expressionProblems } from '../../../shared/adapters/dynamodb/expressions/expression-rules';
import { planCounterWrite, type PendingMessage } from '../../../shared/domain/delivery/counter-plan';
import { EMPTY_COUNTERS } from '../../../shared/domain/delivery/counter-state';
import { METRICS, PERIODS } from '../../../shared/domain/limits/cap-axes';

const message: PendingMessage = {
  messageId: 'm',
  group: 'g',
  sequence: '1',
  contribution: {
    target: { type: 'CAMPAIGN', id: 100 },
    periods: { daily: new Map([['D#2026-11-22', { clicks: 3n }]]) },
    impressions: [],
    conversions: [],
  },
};
const write = planCounterWrite(undefined, [message], PERIODS, METRICS)!;
const key = { PK: 'CAMPAIGN#100', SK: 'COUNTERS' };

/** The value an update sets an attribute to, found through its placeholders. */
const valueSet = (request: ReturnType<typeof counterWriteRequest>, attribute: string) => {
  const [name] = Object.entries(request.ExpressionAttributeNames!).find(([, candidate]) => candidate === attribute)!;
  const value = new RegExp(`${name} = (:v\\d+)`).exec(request.UpdateExpression!)![1]!;
  return request.ExpressionAttributeValues![value];
};

describe('the caps a counter write stores', () => {
  it('are set with the counters in the same update, by the counter each caps, unset caps left out', () => {
    const request = counterWriteRequest(key, write, [
      { name: 'dailyClicksLimit', period: 'daily', metric: 'clicks', value: 10 },
      { name: 'totalBudgetLimit', period: 'total', metric: 'budget', value: 2.5 },
      { name: 'weeklyClicksLimit', period: 'weekly', metric: 'clicks', value: 0 },
    ]);
    expect(valueSet(request, CAPS_ATTRIBUTE)).toEqual({
      [counterAttribute('daily', 'clicks')]: 10,
      [counterAttribute('total', 'budget')]: 2.5,
    });
    expect(request.UpdateExpression).toMatch(/^SET .* ADD /);
    expect(expressionProblems(request)).toEqual([]);
  });

  it('are removed when no cap is set, so that an old cap never judges a later write', () => {
    const request = counterWriteRequest(key, write, [
      { name: 'dailyClicksLimit', period: 'daily', metric: 'clicks', value: 0 },
    ]);
    const [placeholder] = Object.entries(request.ExpressionAttributeNames!).find(
      ([, name]) => name === CAPS_ATTRIBUTE,
    )!;
    expect(request.UpdateExpression).toMatch(new RegExp(` REMOVE ${placeholder}( |$)`));
    expect(expressionProblems(request)).toEqual([]);
  });

  it('are left alone when the caller gives none', () => {
    expect(Object.values(counterWriteRequest(key, write).ExpressionAttributeNames!)).not.toContain(CAPS_ATTRIBUTE);
  });
});

describe('a reset', () => {
  it('records when it zeroed counters, in the same update', () => {
    const state = { ...EMPTY_COUNTERS, keys: { daily: 'D#2026-11-22', total: 'T' } };
    const request = zeroCountersRequest(key, state, {
      zeroes: [{ period: 'daily', metric: 'clicks' }],
      noConversion: {},
      currentKeys: { daily: 'D#2026-11-22' },
      resetAt: 1_764_000_000_000,
    })!;
    expect(valueSet(request, 'resetAt')).toBe(1_764_000_000_000);
    expect(valueSet(request, counterAttribute('daily', 'clicks'))).toBe(0);
    expect(expressionProblems(request)).toEqual([]);
  });
});
