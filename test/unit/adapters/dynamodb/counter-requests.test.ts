import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  counterWriteRequest,
  counterWriteTransaction,
  zeroCountersRequest,
} from '../../../../shared/adapters/dynamodb/counter-requests';
import { expressionProblems } from '../../../../shared/adapters/dynamodb/expressions/expression-rules';
import { ACTION_METRICS, ACTION_PERIODS } from '../../../../shared/domain/limits/cap-axes';
import { messageContributions, type Ancestry } from '../../../../shared/domain/delivery/contributions';
import { planCounterWrite, sequenceText, type PendingMessage } from '../../../../shared/domain/delivery/counter-plan';
import { markerText, type ShardWriteOptions } from '../../../../shared/domain/delivery/group-markers';
import { EMPTY_COUNTERS, type CounterState } from '../../../../shared/domain/delivery/counter-state';
import {
  CAPS_ATTRIBUTE,
  counterAttribute,
  keyAttribute,
  NEAR_CAP_ATTRIBUTE,
} from '../../../../shared/adapters/dynamodb/counter-attributes';
import { NumberValue } from '../../../../shared/adapters/dynamodb/attribute-values';
import { METRICS, PERIODS, type Metric, type Period } from '../../../../shared/domain/limits/cap-axes';
import { DEMAND_GRID } from '../../../../shared/domain/limits/cap-grid';
import { bucketOf } from '../../../../shared/domain/limits/periods';
import { counterShardKey, countersKey } from '../../../../shared/table/keys';
import { itBuildsRequestsDynamoDbTakes } from '../../../support/store-requests';
import { deliveryEvent } from '../../../support/delivery-event';

/**
 * Every request the planner can produce satisfies DynamoDB's expression rules: states of any shape (periods
 * before, at and after the batch's, markers below, at and above its sequences, any no-conversion state) and
 * batches of any kinds, instants over several weeks, groups and redeliveries. fast-check prints the seed of a
 * failure, so that it replays with `{ seed }`.
 */
const START = Date.parse('2026-11-10T00:00:00Z');
const DAY = 86_400_000;
const instant = fc.integer({ min: START, max: START + 40 * DAY });
// as many groups as one write takes, and more idle markers than one write prunes
const GROUPS = ['seq:odd group', 'g'.repeat(128), ...Array.from({ length: 118 }, (_, i) => `host-${i}`)];
const ancestry: Ancestry = {
  banners: new Map([[1, { campaignId: 10, advertiserId: 100 }]]),
  placements: new Map([[2, { siteId: 20 }]]),
};

/**
 * The caps a write stores for LimitReached: none given, none set (removed), or any of the demand grid's twenty, low
 * enough for the write's guards to be near them (a guard each, or the write marked near a cap).
 */
const capsArbitrary = fc.option(
  fc
    .subarray(DEMAND_GRID.caps.map(({ name, period, metric }) => ({ name, period, metric })))
    .chain((caps) =>
      fc.tuple(
        ...caps.map((cap) =>
          fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0 })).map((value) => ({ ...cap, value })),
        ),
      ),
    ),
  { nil: undefined },
);

const eventArbitrary = fc.record({
  kind: fc.constantFrom('impression', 'click', 'conversion', 'opportunity'),
  count: fc.integer({ min: 1, max: 1_000_000 }),
  revenue: fc.option(fc.constantFrom('0.001', '12.5', '9999999.999'), { nil: undefined }),
  actionId: fc.option(fc.constant(7), { nil: undefined }),
  at: fc.option(instant, { nil: undefined }),
});

type GeneratedEvent = { kind: string; count: number; revenue?: string; actionId?: number; at?: number };
type GeneratedMessage = { group: string; sequence: number; sentAt: number; events: GeneratedEvent[] };
type GeneratedState = {
  keys: Partial<Record<string, number>>;
  counters: Partial<Record<string, Partial<Record<string, bigint>>>>;
  previous: Partial<Record<string, { at: number; tally: Partial<Record<string, bigint>> }>>;
  applied: Partial<Record<string, number>>;
  quietSince?: number;
  impressionsSinceConversion: bigint;
  inlineCount?: number;
  overflowDay?: number;
  beside: Partial<Record<string, number>>;
};

const messagesOf = (groups: readonly string[], most: number): fc.Arbitrary<GeneratedMessage[]> =>
  fc.array(
    fc.record({
      group: fc.constantFrom(...groups),
      sequence: fc.integer({ min: 1, max: 30 }),
      sentAt: instant,
      events: fc.array(eventArbitrary, { minLength: 1, maxLength: 4 }),
    }),
    { minLength: 1, maxLength: most },
  );
const pendingArbitrary = messagesOf(GROUPS.slice(0, 16), 20);

/**
 * A write's messages and, when the container guesses, the groups it saw inline: 16 groups at most, or, with a
 * guess that puts them all beside, 64 (how `counter-store.ts` cuts a batch).
 */
const writeArbitrary = fc.oneof(
  fc.tuple(pendingArbitrary, fc.option(fc.subarray(GROUPS.slice(0, 16)), { nil: undefined })),
  fc.tuple(messagesOf(GROUPS.slice(0, 64), 80), fc.constant([] as string[])),
);

const toPending = (messages: GeneratedMessage[], action: boolean): PendingMessage[] =>
  messages.flatMap(({ group, sequence, sentAt, events }, index) => {
    const parsed = events.map(({ kind, count, revenue, actionId, at }) =>
      deliveryEvent({
        kind: action ? 'conversion' : kind,
        bannerId: 1,
        count,
        ...(revenue !== undefined ? { revenue } : {}),
        ...(action || (actionId !== undefined && kind === 'conversion') ? { actionId: 7 } : {}),
        ...(at !== undefined ? { at: new Date(at).toISOString() } : {}),
      }),
    );
    const { contributions } = messageContributions(parsed, ancestry, new Date(sentAt));
    const contribution = contributions.find((c) =>
      action ? c.target.actionId === 7 : c.target.actionId === undefined,
    );
    return contribution ? [{ messageId: `m${index}`, group, sequence: sequenceText(sequence), contribution }] : [];
  });

const tallyArbitrary = (metrics: readonly Metric[]) =>
  fc.record(Object.fromEntries(metrics.map((metric) => [metric, fc.bigInt({ min: 0n, max: 10n ** 16n })])), {
    requiredKeys: [],
  });

const stateArbitrary = (
  periods: readonly Period[],
  metrics: readonly Metric[],
): fc.Arbitrary<GeneratedState | undefined> =>
  fc.option(
    fc.record({
      keys: fc.record(Object.fromEntries(periods.map((period) => [period, instant])), { requiredKeys: [] }),
      counters: fc.record(Object.fromEntries(periods.map((period) => [period, tallyArbitrary(metrics)])), {
        requiredKeys: [],
      }),
      // the previous period of each (any, even one in the wrong order), or none: an item written before it had one
      previous: fc.record(
        Object.fromEntries(
          periods
            .filter((period) => period !== 'total')
            .map((period) => [period, fc.record({ at: instant, tally: tallyArbitrary(metrics) })]),
        ),
        { requiredKeys: [] },
      ),
      applied: fc.record(Object.fromEntries(GROUPS.map((group) => [group, fc.integer({ min: 1, max: 30 })])), {
        requiredKeys: [],
      }),
      quietSince: fc.option(instant, { nil: undefined }),
      impressionsSinceConversion: fc.bigInt({ min: 0n, max: 10n ** 12n }),
      // markers kept beside the item: their count on it, the day of its last beside write, and marker items read
      inlineCount: fc.option(fc.integer({ min: 0, max: 120 }), { nil: undefined }),
      overflowDay: fc.option(fc.integer({ min: START / DAY - 30, max: START / DAY + 40 }), { nil: undefined }),
      beside: fc.record(
        Object.fromEntries(GROUPS.slice(0, 16).map((group) => [group, fc.integer({ min: 1, max: 30 })])),
        {
          requiredKeys: [],
        },
      ),
    }),
    { nil: undefined },
  );

const asState = (generated: GeneratedState | undefined): CounterState | undefined =>
  generated && {
    keys: Object.fromEntries(
      Object.entries(generated.keys).map(([period, at]) => [
        period,
        bucketOf(period as Period, new Date(at as number)),
      ]),
    ),
    counters: generated.counters as CounterState['counters'],
    previous: Object.fromEntries(
      Object.entries(generated.previous).map(([period, slot]) => [
        period,
        { key: bucketOf(period as Period, new Date(slot!.at)), tally: slot!.tally },
      ]),
    ),
    // markers with the time the item last applied their group, some of them idle past the horizon
    applied: Object.fromEntries(
      Object.entries(generated.applied).map(([group, n]) => [
        group,
        n! % 3 === 0 ? sequenceText(n!) : markerText(sequenceText(n!), new Date(START - (n! % 5) * 5 * DAY)),
      ]),
    ),
    ...(generated.quietSince !== undefined ? { quietSince: generated.quietSince } : {}),
    impressionsSinceConversion: generated.impressionsSinceConversion,
    ...(generated.inlineCount !== undefined ? { inlineCount: generated.inlineCount } : {}),
    ...(generated.overflowDay !== undefined ? { overflowDay: generated.overflowDay } : {}),
    beside: Object.fromEntries(Object.entries(generated.beside).map(([group, n]) => [group, sequenceText(n!)])),
  };

describe('every counter write the planner can produce', () => {
  it.each([
    ['an entity', PERIODS, METRICS, false],
    ['an action', ACTION_PERIODS, ACTION_METRICS, true],
  ] as const)('on %s satisfies DynamoDB expression rules', (_name, periods, metrics, action) => {
    fc.assert(
      fc.property(
        stateArbitrary(periods, metrics),
        writeArbitrary,
        instant,
        capsArbitrary,
        fc.boolean(),
        (generated, [messages, guess], now, caps, near) => {
          const pending = toPending(messages, action);
          const unread = guess ? { knownInline: new Set(guess) } : {};
          const write = planCounterWrite(
            asState(generated),
            pending,
            { periods, metrics },
            { now: new Date(now), ...unread },
          );
          if (!write) return;
          const request = counterWriteRequest(countersKey('BANNER', 1), write, caps, { near });
          expect(expressionProblems(request), JSON.stringify(request)).toEqual([]);
          // a write with markers beside: the item's update and each marker item's, in one transaction
          for (const { Update } of counterWriteTransaction('table', request, write).TransactItems)
            expect(expressionProblems(Update!), JSON.stringify(Update)).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('of a reset satisfies them too', () => {
    const zeroes = fc.array(fc.record({ period: fc.constantFrom(...PERIODS), metric: fc.constantFrom(...METRICS) }), {
      maxLength: 30,
    });
    fc.assert(
      fc.property(
        stateArbitrary(PERIODS, METRICS),
        zeroes,
        fc.record(
          { quietSince: fc.option(instant, { nil: undefined }), impressions: fc.boolean() },
          { requiredKeys: [] },
        ),
        instant,
        (generated, zeroed, noConversion, now) => {
          const state = asState(generated) ?? { keys: {}, counters: {}, applied: {}, impressionsSinceConversion: 0n };
          const currentKeys = Object.fromEntries(PERIODS.map((period) => [period, bucketOf(period, new Date(now))]));
          const request = zeroCountersRequest(countersKey('BANNER', 1), state, {
            zeroes: zeroed,
            noConversion,
            currentKeys,
            resetAt: now,
          });
          if (request) expect(expressionProblems(request), JSON.stringify(request)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

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
const write = planCounterWrite(undefined, [message], { periods: PERIODS, metrics: METRICS })!;
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
    expect(request.UpdateExpression).toMatch(new RegExp(` REMOVE (\\S+, )*${placeholder}(,|$| )`));
    expect(expressionProblems(request)).toEqual([]);
  });

  it('are left alone when the caller gives none', () => {
    expect(Object.values(counterWriteRequest(key, write).ExpressionAttributeNames!)).not.toContain(CAPS_ATTRIBUTE);
  });
});

describe("what a counter write tells the table stream's trigger", () => {
  const dailyClicks = (value: number) => [
    { name: 'dailyClicksLimit', period: 'daily', metric: 'clicks', value } as const,
  ];
  const marked = (request: ReturnType<typeof counterWriteRequest>) => valueSet(request, NEAR_CAP_ATTRIBUTE);
  const nameOf = (request: ReturnType<typeof counterWriteRequest>, attribute: string) =>
    Object.entries(request.ExpressionAttributeNames!).find(([, name]) => name === attribute)?.[0];

  it('proves a write of 3 clicks under a cap of 10 reaches nothing: its counter below 7, the mark removed', () => {
    const request = counterWriteRequest(key, write, dailyClicks(10));
    const counter = nameOf(request, counterAttribute('daily', 'clicks'))!;
    expect(request.ConditionExpression).toContain(`(attribute_not_exists(${counter}) OR ${counter} < `);
    const threshold = new RegExp(`${counter} < (:v\\d+)`).exec(request.ConditionExpression!)![1]!;
    expect(request.ExpressionAttributeValues![threshold]).toEqual(NumberValue.from('7'));
    expect(request.UpdateExpression).toMatch(
      new RegExp(` REMOVE (\\S+, )*${nameOf(request, NEAR_CAP_ATTRIBUTE)}(,|$| )`),
    );
    expect(expressionProblems(request)).toEqual([]);
  });

  it('marks a write that adds the cap or more, with no guard: it may be the one that reached it', () => {
    const request = counterWriteRequest(key, write, dailyClicks(3));
    expect(marked(request)).toBe(true);
    expect(request.ConditionExpression ?? '').not.toContain(nameOf(request, counterAttribute('daily', 'clicks'))!);
  });

  it('marks a write planned near a cap, and one whose caps it does not know', () => {
    expect(marked(counterWriteRequest(key, write, dailyClicks(10), { near: true }))).toBe(true);
    expect(marked(counterWriteRequest(key, write))).toBe(true);
  });

  it('neither guards nor marks for a counter no cap is on', () => {
    const request = counterWriteRequest(key, write, [
      { name: 'dailyImpressionsLimit', period: 'daily', metric: 'impressions', value: 1 },
    ]);
    expect(request.ConditionExpression ?? '').not.toContain(nameOf(request, counterAttribute('daily', 'impressions'))!);
    expect(nameOf(request, NEAR_CAP_ATTRIBUTE)).toBeDefined();
    expect(Object.values(request.ExpressionAttributeValues ?? {})).not.toContain(true);
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

  it("zeroes the slot that holds the reset's period, and leaves the other slot's period as it is", () => {
    // at 23:58 an early event moved the item into tomorrow: today is its previous period
    const state = {
      ...EMPTY_COUNTERS,
      keys: { daily: 'D#2026-11-23' },
      counters: { daily: { clicks: 2n } },
      previous: { daily: { key: 'D#2026-11-22', tally: { clicks: 60n } } },
    };
    const request = zeroCountersRequest(key, state, {
      zeroes: [{ period: 'daily', metric: 'clicks' }],
      noConversion: {},
      currentKeys: { daily: 'D#2026-11-22' },
      resetAt: 1_764_000_000_000,
    })!;
    expect(valueSet(request, counterAttribute('daily', 'clicks', 'previous'))).toBe(0);
    const named = Object.values(request.ExpressionAttributeNames!);
    expect(named).not.toContain(counterAttribute('daily', 'clicks'));
    expect(named).toContain(keyAttribute('daily', 'previous'));
    expect(request.ConditionExpression).toBeDefined();
    expect(expressionProblems(request)).toEqual([]);
  });
});

describe("a shard's counter writes", () => {
  const now = new Date('2026-11-25T12:00:00Z');
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
      { periods: PERIODS, metrics: METRICS },
      { now, ...shard },
    )!;

  itBuildsRequestsDynamoDbTakes([
    [
      'a counter write to shard 0, required unsharded and tallied',
      counterWriteRequest(
        countersKey('ADVERTISER', 1),
        shardWrite(),
        [{ name: 'dailyClicksLimit', period: 'daily', metric: 'clicks', value: 5 }],
        {
          epoch: { shard: 0, shards: 1, unraised: true },
          tallyAt: 5,
        },
      ),
    ],
    [
      "a shard's first write, its groups' markers required present",
      counterWriteRequest(counterShardKey('ADVERTISER', 1, 3), shardWrite({ unread: 'presentBelow' })),
    ],
    [
      "a shard's write held to the count it routed with, of an entity never raised",
      counterWriteRequest(counterShardKey('ADVERTISER', 1, 3), shardWrite({ unread: 'presentBelow' }), undefined, {
        epoch: { shard: 3, shards: 4, unraised: true },
      }),
    ],
    [
      "a shard's write held to a raised count",
      counterWriteRequest(counterShardKey('ADVERTISER', 1, 3), shardWrite(), undefined, {
        epoch: { shard: 3, shards: 5, unraised: false },
      }),
    ],
    [
      "shard 0's write held to its count",
      counterWriteRequest(countersKey('ADVERTISER', 1), shardWrite(), undefined, {
        epoch: { shard: 0, shards: 5, unraised: false },
      }),
    ],
  ]);
});
