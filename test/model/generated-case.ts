import fc from 'fast-check';
import type { ModelEvent, ModelKind } from './counter-model';
import { ACTION_IDS, BANNER_IDS, ENTITIES, isSupply, PLACEMENT_IDS } from './model-catalog';

/**
 * One generated case: messages in FIFO groups, received over several days, and how the platform hands them to
 * the recorder: batch by batch, regrouped across groups, with write faults, timeouts after commit (the whole
 * batch comes back) and a second invocation racing on the same batch.
 */
export interface GeneratedMessage {
  group: number;
  /** When the queue received it (ms); non-decreasing in generation order, so within each group too. */
  sentAt: number;
  events: ModelEvent[];
}

export interface DeliveryStep {
  /** How many pending messages the batch takes, from the heads of the groups. */
  size: number;
  /** The group the batch starts taking from, so that batches mix groups in changing orders. */
  firstGroup: number;
  /** The write request of the invocation(s) that fails, counting from 1. */
  faultAt?: number;
  /** The invocation wrote but its answer was lost: every message of the batch comes back. */
  timedOut: boolean;
  /** A second invocation runs the same batch at the same time (a timed-out one still writing). */
  raced: boolean;
}

/** A reset.do of one entity's counters, flushed once the messages before `afterMessage` are all delivered. */
export interface GeneratedReset {
  afterMessage: number;
  entity: string;
  name: string;
}

/**
 * Entities whose counters are sharded before the given delivery step of the first run (0: from the start; the
 * number of steps: before the drain), while batches that already wrote may still come back.
 */
export interface GeneratedSharding {
  beforeStep: number;
  shards: Record<string, number>;
}

export interface GeneratedCase {
  /** One group, events without `at`: the no-conversion state is then defined by arrival order as well. */
  orderly: boolean;
  messages: GeneratedMessage[];
  /** How long each group's name is (at most 128, SQS's limit); absent or short: as short as it can be. */
  groupNameLengths?: number[];
  steps: DeliveryStep[];
  reset?: GeneratedReset;
  sharding?: GeneratedSharding;
}

const MINUTE = 60_000;

/**
 * Message groups a case uses at most: more than the model's transport lets a counter item hold itself
 * (`MODEL_INLINE_MARKERS`), so that cases reach the markers kept beside it.
 */
export const MAX_GROUPS = 6;
const MAX_GROUP_NAME = 128;

/**
 * Days near the boundaries of weeks, months and years (UTC: the periods' boundaries whatever an account's
 * useLocalTime, which moves only how run dates are read and shown), so that rollovers of every period come up.
 */
const ANCHORS = ['2026-11-29T12:00:00Z', '2026-11-30T12:00:00Z', '2026-12-31T12:00:00Z', '2027-01-03T12:00:00Z'].map(
  Date.parse,
);

const DAY = 24 * 60 * MINUTE;

/**
 * Midnights (UTC) where periods end: a day alone (a Thursday), an ISO week (Sunday to Monday), a month, a year (and
 * its month, in ISO week 53), an ISO week-numbering year. A case starting minutes before one has events dated a
 * little either side of it, arriving in either order.
 */
const EDGES = [
  '2026-11-26T00:00:00Z',
  '2026-11-30T00:00:00Z',
  '2026-12-01T00:00:00Z',
  '2027-01-01T00:00:00Z',
  '2027-01-04T00:00:00Z',
].map(Date.parse);

/** An event's `at`: absent, an offset (ms) from its message's receipt, or an instant of its own (ms). */
type AtChoice = undefined | number | { instant: number };

/**
 * How an event's `at` relates to its message's receipt: absent, late (within hours, or anywhere in the 14 days the
 * window accepts), seconds either side of it (across a period's edge when the receipt is near one), a little
 * ahead, too far ahead (counted at receipt), the window's very edges, just outside it, or
 * any instant of the years 0001–9999 (outside it: its message is dead-lettered).
 */
const atChoice: fc.Arbitrary<AtChoice> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 72 * 60 }).map((minutes) => -minutes * MINUTE) },
  { weight: 4, arbitrary: fc.integer({ min: -10 * 60, max: 5 * 60 }).map((seconds) => seconds * 1000) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 14 * DAY }).map((ms) => -ms) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 5 }).map((minutes) => minutes * MINUTE) },
  { weight: 2, arbitrary: fc.integer({ min: 5 * 60 + 1, max: 24 * 3600 }).map((seconds) => seconds * 1000) },
  { weight: 1, arbitrary: fc.constantFrom(-14 * DAY, DAY, -14 * DAY - 1, DAY + 1, -15 * DAY, 2 * DAY) },
  {
    weight: 1,
    arbitrary: fc
      .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true })
      .map((date) => ({ instant: date.getTime() })),
  },
);

const atOf = (choice: AtChoice, sentAt: number): string | undefined =>
  choice === undefined
    ? undefined
    : new Date(typeof choice === 'number' ? sentAt + choice : choice.instant).toISOString();

const kind = fc.constantFrom<ModelKind>('impression', 'impression', 'click', 'conversion', 'opportunity', 'request');

const event = (withAt: boolean) =>
  fc
    .record({
      kind,
      side: fc.constantFrom('banner', 'banner', 'placement', 'both'),
      bannerId: fc.constantFrom(...BANNER_IDS),
      placementId: fc.constantFrom(...PLACEMENT_IDS),
      actionId: fc.option(fc.constantFrom(...ACTION_IDS), { nil: undefined, freq: 2 }),
      revenue: fc.option(fc.constantFrom('0.001', '0.125', '2', '1000000.5'), { nil: undefined, freq: 2 }),
      count: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constant(1_000_000)),
      at: withAt ? atChoice : fc.constant(undefined),
    })
    .map(({ kind, side, bannerId, placementId, actionId, revenue, count, at }) => {
      // a valid event: a request needs a placement, an action goes with a conversion only
      const where = kind === 'request' && side === 'banner' ? 'placement' : side;
      const event: ModelEvent = {
        kind,
        ...(where !== 'placement' ? { bannerId } : {}),
        ...(where !== 'banner' ? { placementId } : {}),
        ...(kind === 'conversion' && actionId !== undefined ? { actionId } : {}),
        ...(revenue !== undefined ? { revenue } : {}),
        count,
      };
      return { event, at };
    });

const messages = (orderly: boolean, size: CaseSize) =>
  fc
    .record({
      start: fc.oneof(
        fc.tuple(fc.constantFrom(...ANCHORS), fc.integer({ min: -36 * 60, max: 36 * 60 })),
        fc.tuple(fc.constantFrom(...EDGES), fc.integer({ min: -10, max: 3 })),
      ),
      list: fc.array(
        fc.record({
          group: orderly ? fc.constant(0) : fc.integer({ min: 0, max: MAX_GROUPS - 1 }),
          gapMinutes: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 20 * 60 })),
          events: fc.array(event(!orderly), { minLength: 1, maxLength: size.events }),
        }),
        { minLength: 1, maxLength: size.messages },
      ),
    })
    .map(({ start: [start, startShift], list }) => {
      let sentAt = start + startShift * MINUTE;
      return list.map(({ group, gapMinutes, events }): GeneratedMessage => {
        sentAt += gapMinutes * MINUTE;
        return {
          group,
          sentAt,
          events: events.map(({ event, at }) => {
            const text = atOf(at, sentAt);
            return text === undefined ? event : { ...event, at: text };
          }),
        };
      });
    });

const step: fc.Arbitrary<DeliveryStep> = fc
  .record({
    size: fc.integer({ min: 1, max: 10 }),
    firstGroup: fc.integer({ min: 0, max: MAX_GROUPS - 1 }),
    faultAt: fc.option(fc.integer({ min: 1, max: 14 }), { nil: undefined, freq: 2 }),
    timedOut: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
    raced: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
  })
  .map(({ faultAt, ...rest }) => ({ ...rest, ...(faultAt !== undefined ? { faultAt } : {}) }));

const DEMAND_RESETS = ['DAILY_IMPRESSIONS', 'WEEKLY_CLICKS', 'MONTHLY_REVENUE', 'TOTAL_OPPORTUNITIES', 'ALL_LIMITS'];
const SUPPLY_RESETS = ['DAILY_REQUESTS', 'WEEKLY_CONVERSIONS', 'TOTAL_IMPRESSIONS', 'ALL_LIMITS'];

const reset = (messages: number): fc.Arbitrary<GeneratedReset> =>
  fc
    .record({ afterMessage: fc.integer({ min: 1, max: messages }), entity: fc.constantFrom(...ENTITIES) })
    .chain(({ afterMessage, entity }) =>
      fc
        .constantFrom(...(isSupply(entity) ? SUPPLY_RESETS : DEMAND_RESETS))
        .map((name) => ({ afterMessage, entity, name })),
    );

const sharding = (steps: number): fc.Arbitrary<GeneratedSharding> =>
  fc.record({
    beforeStep: fc.integer({ min: 0, max: steps }),
    shards: fc
      .uniqueArray(fc.constantFrom(...ENTITIES), { minLength: 1, maxLength: ENTITIES.length })
      .chain((entities) =>
        fc
          .array(fc.integer({ min: 2, max: 4 }), { minLength: entities.length, maxLength: entities.length })
          .map((counts) => Object.fromEntries(entities.map((entity, index) => [entity, counts[index]!]))),
      ),
  });

/** The most messages, events per message and delivery steps a case has. */
export interface CaseSize {
  messages: number;
  events: number;
  steps: number;
}

/** Small enough for a few hundred cases in `npm test`; `npm run fuzz` goes larger. */
export const TEST_SIZE: CaseSize = { messages: 5, events: 2, steps: 4 };
export const FUZZ_SIZE: CaseSize = { messages: 8, events: 3, steps: 6 };

export const generatedCase = (size: CaseSize): fc.Arbitrary<GeneratedCase> =>
  fc.boolean().chain((orderly) =>
    messages(orderly, size).chain((list) =>
      fc.array(step, { minLength: 0, maxLength: size.steps }).chain((steps) =>
        fc.record(
          {
            orderly: fc.constant(orderly),
            messages: fc.constant(list),
            steps: fc.constant(steps),
            groupNameLengths: fc.array(fc.integer({ min: 1, max: MAX_GROUP_NAME }), {
              minLength: MAX_GROUPS,
              maxLength: MAX_GROUPS,
            }),
            reset: reset(list.length),
            sharding: sharding(steps.length),
          },
          { requiredKeys: ['orderly', 'messages', 'steps'] },
        ),
      ),
    ),
  );
