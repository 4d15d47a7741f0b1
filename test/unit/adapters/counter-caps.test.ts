import { describe, expect, it } from 'vitest';
import { counterWriteRequest, zeroCountersRequest } from '../../../shared/adapters/dynamodb/counter-store';
import { planCounterWrite, type PendingMessage } from '../../../shared/domain/delivery/counter-plan';
import { EMPTY_COUNTERS } from '../../../shared/domain/delivery/counter-state';
import { METRICS, PERIODS } from '../../../shared/domain/limits/metrics';

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

/** Every placeholder the request declares appears in its expressions, and every one they use is declared. */
const expectPlaceholdersMatch = (request: ReturnType<typeof counterWriteRequest>) => {
  const text = `${request.UpdateExpression} ${request.ConditionExpression ?? ''}`;
  const used = new Set(text.match(/[#:][A-Za-z0-9]+/g));
  const declared = new Set([
    ...Object.keys(request.ExpressionAttributeNames ?? {}),
    ...Object.keys(request.ExpressionAttributeValues ?? {}),
  ]);
  expect(used).toEqual(declared);
};

describe('the caps a counter write stores', () => {
  it('are set with the counters in the same update, by cap name', () => {
    const request = counterWriteRequest(key, write, { dailyClicksLimit: 10, totalBudgetLimit: 2.5 });
    const [placeholder] = Object.entries(request.ExpressionAttributeNames!).find(([, name]) => name === 'caps')!;
    const value = request.UpdateExpression!.match(new RegExp(`${placeholder} = (:v\\d+)`))![1]!;
    expect(request.ExpressionAttributeValues![value]).toEqual({ dailyClicksLimit: 10, totalBudgetLimit: 2.5 });
    expect(request.UpdateExpression).toMatch(/^SET .* ADD /);
    expectPlaceholdersMatch(request);
  });

  it('are removed when no cap is set, so that an old cap never judges a later write', () => {
    const request = counterWriteRequest(key, write, {});
    const [placeholder] = Object.entries(request.ExpressionAttributeNames!).find(([, name]) => name === 'caps')!;
    expect(request.UpdateExpression).toMatch(new RegExp(` REMOVE ${placeholder}$`));
    expectPlaceholdersMatch(request);
  });

  it('are left alone when the caller gives none', () => {
    expect(Object.values(counterWriteRequest(key, write).ExpressionAttributeNames!)).not.toContain('caps');
  });
});

describe('a reset', () => {
  it('records when it zeroed counters, in the same update', () => {
    const state = { ...EMPTY_COUNTERS, keys: { daily: 'D#2026-11-22', total: 'T' } };
    const request = zeroCountersRequest(
      key,
      state,
      [{ period: 'daily', metric: 'clicks' }],
      {},
      { daily: 'D#2026-11-22' },
      1_764_000_000_000,
    )!;
    expect(request.UpdateExpression).toContain('#resetAt = :resetAt');
    expect(request.ExpressionAttributeNames!['#resetAt']).toBe('resetAt');
    expect(request.ExpressionAttributeValues![':resetAt']).toBe(1_764_000_000_000);
    expectPlaceholdersMatch(request);
  });
});
