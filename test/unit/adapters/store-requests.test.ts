import { describe, expect, it } from 'vitest';
import { childrenQuery } from '../../../shared/adapters/dynamodb/children-store';
import {
  expressionProblems,
  type ExpressionRequest,
} from '../../../shared/adapters/dynamodb/expressions/expression-rules';
import { historyPageQuery, historyWrites } from '../../../shared/adapters/dynamodb/history-store';
import {
  clearLimitCountersItems,
  deleteLimitRequest,
  saveLimitRequest,
} from '../../../shared/adapters/dynamodb/limit-store';
import { meterStepRequest } from '../../../shared/adapters/dynamodb/meter-store';
import { consumeRequest } from '../../../shared/adapters/dynamodb/one-time-items';
import {
  changePasswordTransaction,
  claimResetMailRequest,
  newestResetTokenRequest,
  releaseResetMailRequest,
} from '../../../shared/adapters/dynamodb/password-reset-store';
import {
  clearActionCountersItem,
  deletePerActionRequest,
  savePerActionRequest,
} from '../../../shared/adapters/dynamodb/per-action-store';
import { usageKeyRequest } from '../../../shared/adapters/dynamodb/user-records';
import { EMPTY_LIMIT } from '../../../shared/domain/limits/limit-record';
import { meterWindow, partnerPlan } from '../../../shared/domain/metering/partner-quota';
import { counterShardKey, countersKey, resetTokenKey } from '../../../shared/table/keys';
import { restartTallyRequest, shardCountRequest } from '../../../shared/adapters/dynamodb/counter-shards-store';
import { counterWriteRequest } from '../../../shared/adapters/dynamodb/counter-requests';
import { planCounterWrite, sequenceText, type ShardWriteOptions } from '../../../shared/domain/delivery/counter-plan';
import { METRICS, PERIODS } from '../../../shared/domain/limits/cap-axes';

const now = new Date('2026-11-25T12:00:00Z');
const perAction = {
  id: 7,
  entityType: 'CAMPAIGN' as const,
  entityId: 100,
  actionId: 3,
  dailyConversionsLimit: 5,
  totalConversionsLimit: 50,
  version: 2,
};
const entry = {
  at: now.toISOString(),
  operation: 'set' as const,
  by: { userId: 1, username: 'demo', method: 'apiKey' },
};
const window = meterWindow(partnerPlan(), now);
const shardWrite = (shard: ShardWriteOptions = {}) =>
  planCounterWrite(
    undefined,
    [
      {
        messageId: 'm1',
        group: 'g',
        sequence: sequenceText(1),
        contribution: {
          target: { type: 'ADVERTISER', id: 1 },
          periods: { daily: new Map([['D#2026-11-25', { clicks: 1n }]]) },
          impressions: [],
          conversions: [],
        },
      },
    ],
    PERIODS,
    METRICS,
    now,
    shard,
  )!;

/** The requests inside a transaction's items, or the request itself. */
/** An entity's stored counter items: none, shard 0 alone, or `count` shards. */
const storedCounters = (count: number) => ({
  keys: Array.from({ length: count }, (_, shard) => counterShardKey('CAMPAIGN', 100, shard)),
  shards: Math.max(1, count),
});

const requestsOf = (built: object): ExpressionRequest[] =>
  'TransactItems' in built
    ? (built.TransactItems as object[]).flatMap((item) => requestsOf(item))
    : ['Put', 'Update', 'Delete', 'ConditionCheck'].some((action) => action in built)
      ? Object.values(built).map((request) => request as ExpressionRequest)
      : [built as ExpressionRequest];

const REQUESTS: [string, object][] = [
  ['a limit saved anew', saveLimitRequest({ type: 'CAMPAIGN', entityId: 100, state: EMPTY_LIMIT, limitId: 1, now })],
  [
    'a limit saved again',
    saveLimitRequest({
      type: 'CAMPAIGN',
      entityId: 100,
      state: EMPTY_LIMIT,
      previous: { id: 1, version: 4 },
      limitId: 1,
      now,
    }),
  ],
  ['a limit deleted', deleteLimitRequest('CAMPAIGN', 100, 4)],
  ['its counters cleared', { TransactItems: clearLimitCountersItems('t', 'CAMPAIGN', 100, storedCounters(1)) }],
  ['its shards cleared', { TransactItems: clearLimitCountersItems('t', 'CAMPAIGN', 100, storedCounters(3)) }],
  ['its absent counters checked', { TransactItems: clearLimitCountersItems('t', 'CAMPAIGN', 100, storedCounters(0)) }],
  ['a per-action limit saved anew', savePerActionRequest('t', perAction, undefined, true)],
  ['a per-action limit saved again', savePerActionRequest('t', perAction, 2, false)],
  ['per-action limits deleted', deletePerActionRequest('t', [perAction, { ...perAction, actionId: 4 }])],
  ['an action counter cleared', clearActionCountersItem('t', perAction, true)],
  ['an absent action counter checked', clearActionCountersItem('t', perAction, false)],
  ['a first history entry', { TransactItems: historyWrites('t', 'CAMPAIGN', 100, entry, now, 0) }],
  ['a later history entry', { TransactItems: historyWrites('t', 'CAMPAIGN', 100, entry, now, 3) }],
  ['the first history page', historyPageQuery('CAMPAIGN#100', undefined, 10)],
  ['a later history page', historyPageQuery('CAMPAIGN#100', 'HISTORY#V#000000000003', 10)],
  ['a one-time item consumed', consumeRequest(resetTokenKey('d'), now)],
  ['a meter counted', meterStepRequest({ kind: 'count', window: window.window }, { PK: 'M', SK: 'D' }, window, now)],
  [
    'a meter window opened',
    meterStepRequest({ kind: 'open', window: window.window }, { PK: 'M', SK: 'D' }, window, now),
  ],
  ['a reset mail claimed', claimResetMailRequest({ PK: 'R', SK: 'H' }, 5, 1, 9)],
  ['a reset mail released', releaseResetMailRequest({ PK: 'R', SK: 'H' }, 5)],
  ['the newest reset token named', newestResetTokenRequest(1, 'd')],
  [
    'a password changed',
    changePasswordTransaction('t', {
      tokenKey: resetTokenKey('d'),
      digest: 'd',
      userId: 1,
      passwordHash: 'h',
      verifier: 'v',
      now: 5,
    }),
  ],
  ['a metering key given', usageKeyRequest(1, 'k')],
  ['the children of an advertiser', childrenQuery('ADVERTISER#1')],
  ['a shard count set', shardCountRequest('ADVERTISER', 1, 16)],
  ['a write tally started again', restartTallyRequest('ADVERTISER', 1, 1_000, 12_000)],
  [
    'a counter write to shard 0, required unsharded and tallied',
    counterWriteRequest(
      countersKey('ADVERTISER', 1),
      shardWrite(),
      [{ name: 'dailyClicksLimit', period: 'daily', metric: 'clicks', value: 5 }],
      {
        requireUnsharded: true,
        tallyAt: 5,
      },
    ),
  ],
  [
    "a shard's first write, its groups' markers required present",
    counterWriteRequest(counterShardKey('ADVERTISER', 1, 3), shardWrite({ unread: 'presentBelow' })),
  ],
];

describe("the stores' requests", () => {
  it.each(REQUESTS)('%s: every expression is one DynamoDB takes, every placeholder declared and used', (_, built) => {
    const requests = requestsOf(built);
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) expect(expressionProblems(request)).toEqual([]);
  });
});

describe("a limit delete's counter items", () => {
  it('clear every stored shard, check the others still absent, and require the shard count read on shard 0', () => {
    const keys = [counterShardKey('CAMPAIGN', 100, 0), counterShardKey('CAMPAIGN', 100, 2)];
    const items = clearLimitCountersItems('t', 'CAMPAIGN', 100, { keys, shards: 4 });
    expect(items.map((item) => [Object.keys(item)[0], (item.Update ?? item.ConditionCheck)?.Key?.SK])).toEqual([
      ['Update', 'COUNTERS'],
      ['ConditionCheck', 'COUNTERS#1'],
      ['Update', 'COUNTERS#2'],
      ['ConditionCheck', 'COUNTERS#3'],
    ]);
    const shardZero = items[0]!.Update!;
    expect(Object.values(shardZero.ExpressionAttributeNames ?? {})).toContain('shards');
    expect(Object.values(shardZero.ExpressionAttributeValues ?? {})).toContain(4);
    expect(items[2]!.Update!.ConditionExpression).toBeUndefined();
  });
});
