import { describe, expect, it } from 'vitest';
import { cpuOverBudget, overBudget, type Budgets, type Measured } from '../../../bench/over-budget';

const budgets: Budgets = {
  bulkReadWallMs: 1_000,
  bulkReadCallRssBytes: 1_000,
  deliveryWriteItems: 10,
  handlerCpuRatioP50: 1.5,
  coldStartRatioToMinimal: { default: 1.25 },
  webhookFanOutReadUnits: 10,
};
const bulk = { wallMs: 10, peakRssBytes: 100, rssBeforeBytes: 50, rowsReturned: 5, campaigns: 5 } as Measured['bulk'];
const within: Measured = {
  requestCounts: [],
  bulk,
  webhooks: { fanOut: { subscriptions: 10_000, matching: 20, readUnits: 5.5, requests: 5 } },
};

describe('the figures over budget', () => {
  it('are none for a run within every budget', () => {
    expect(overBudget(budgets, within)).toEqual([]);
  });

  it('name a fan-out reading more than its budget, or delivering other than its twenty', () => {
    const fanOut = { subscriptions: 10_000, matching: 19, readUnits: 10.5, requests: 5 };
    expect(overBudget(budgets, { ...within, webhooks: { fanOut } })).toEqual([
      'webhook fan-out: 10.5 read units, budget 10',
      'webhook fan-out: 19 deliveries, 20 expected',
    ]);
  });

  it("name an operation whose processor time through the functions is over its budget's ratio to its raw requests", () => {
    const rows = [
      { operation: 'limit read', cpuRatioP50: 1.5 },
      { operation: 'set.do (existing record)', cpuRatioP50: 1.51 },
    ];
    expect(cpuOverBudget(budgets, rows)).toEqual([
      'set.do (existing record): processor time 1.51× that of its requests sent raw, budget 1.5×',
    ]);
  });
});
