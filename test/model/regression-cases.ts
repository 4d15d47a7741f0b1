import type { GeneratedCase } from './generated-case';

const NOV_29_NOON = Date.parse('2026-11-29T12:00:00Z');
const SUNDAY_2357 = Date.parse('2026-11-29T23:57:00Z');
const ONE_BATCH = { size: 10, firstGroup: 0, timedOut: false, raced: false };
const ONE_BY_ONE = { ...ONE_BATCH, size: 1 };

/** Counterexamples the model-based test found, shrunk, kept as fixed cases (`checkCase` runs each). */
export const REGRESSION_CASES: Record<string, GeneratedCase> = {
  // an event dated 12 hours after its receipt moved the item's periods into tomorrow
  'an event dated far after its receipt counts at its receipt': {
    orderly: false,
    messages: [
      {
        group: 0,
        sentAt: NOV_29_NOON,
        events: [{ kind: 'impression', bannerId: 9100, count: 1_000_000, at: '2026-11-30T00:00:00.000Z' }],
      },
    ],
    steps: [],
  },
  // with no conversion yet, an impression at the instant of the first one was lost when its write was planned
  // again after a lost race (here: a batch that wrote, timed out and came back with one more message)
  'an impression at the instant of the first, in a batch that comes back': {
    orderly: true,
    messages: [
      { group: 0, sentAt: NOV_29_NOON, events: [{ kind: 'impression', bannerId: 9100, count: 1_000_000 }] },
      { group: 0, sentAt: NOV_29_NOON, events: [{ kind: 'impression', bannerId: 9100, count: 1 }] },
    ],
    steps: [{ ...ONE_BY_ONE, timedOut: true, raced: true }],
  },
  // an impression at the instant of the last conversion counts in a later batch, not in the same one: the model
  // leaves such a tie open (`noConversionState`), and these hold the recorder to one of the two answers
  'an impression at the instant of the last conversion, in a later batch': {
    orderly: true,
    messages: [
      { group: 0, sentAt: NOV_29_NOON, events: [{ kind: 'conversion', bannerId: 9100, count: 1 }] },
      { group: 0, sentAt: NOV_29_NOON, events: [{ kind: 'impression', bannerId: 9100, count: 1 }] },
    ],
    steps: [ONE_BY_ONE],
  },
  'an impression at the instant of the last conversion, in the same batch': {
    orderly: true,
    messages: [
      { group: 0, sentAt: NOV_29_NOON, events: [{ kind: 'conversion', bannerId: 9100, count: 1 }] },
      { group: 0, sentAt: NOV_29_NOON, events: [{ kind: 'impression', bannerId: 9100, count: 1 }] },
    ],
    steps: [ONE_BATCH],
  },
  'an impression, then a conversion at the same instant in a later batch that comes back': {
    orderly: true,
    messages: [
      { group: 0, sentAt: NOV_29_NOON, events: [{ kind: 'impression', bannerId: 9100, count: 1 }] },
      { group: 0, sentAt: NOV_29_NOON, events: [{ kind: 'conversion', bannerId: 9100, count: 1 }] },
    ],
    steps: [{ ...ONE_BY_ONE, timedOut: true, raced: true }],
  },
  // a batch written on shard 0, timed out and handed back after its advertiser was sharded: its group's shard had
  // no marker, and without the group's floor from shard 0 the batch counted twice
  'a batch applied before its entity is sharded comes back after': {
    orderly: true,
    messages: [
      { group: 0, sentAt: NOV_29_NOON, events: [{ kind: 'click', placementId: 931, revenue: '2', count: 1_000_000 }] },
      {
        group: 0,
        sentAt: NOV_29_NOON,
        events: [{ kind: 'click', bannerId: 9110, placementId: 940, revenue: '0.125', count: 3 }],
      },
    ],
    steps: [{ size: 2, firstGroup: 0, timedOut: true, raced: true, faultAt: 1 }],
    // 3 shards: the case's group goes to shard 2
    sharding: { beforeStep: 1, shards: { 'ADVERTISER#91': 3 } },
  },
  // a year-999 event moved the item's periods to `D#999-…`, which sorted after 2026 as text: every daily, weekly and
  // monthly counter read 0 from then on
  'an event of the year 999 counts nowhere, and later events count in their periods': {
    orderly: false,
    messages: [
      { group: 0, sentAt: NOV_29_NOON, events: [{ kind: 'impression', bannerId: 9100, count: 60 }] },
      {
        group: 0,
        sentAt: NOV_29_NOON,
        events: [{ kind: 'impression', bannerId: 9100, count: 1, at: '0999-06-01T00:00:00.000Z' }],
      },
      { group: 0, sentAt: NOV_29_NOON + 60_000, events: [{ kind: 'impression', bannerId: 9100, count: 100 }] },
    ],
    steps: [ONE_BY_ONE, ONE_BY_ONE, ONE_BY_ONE],
  },
  // impressions dated before the last conversion, arriving after it, counted as impressions since it
  'impressions dated before a conversion arrive after it': {
    orderly: false,
    messages: [
      {
        group: 0,
        sentAt: NOV_29_NOON,
        events: [{ kind: 'conversion', bannerId: 9100, count: 1, at: '2026-11-29T10:00:00.000Z' }],
      },
      {
        group: 1,
        sentAt: NOV_29_NOON,
        events: [{ kind: 'impression', bannerId: 9100, count: 50, at: '2026-11-29T09:00:00.000Z' }],
      },
      {
        group: 2,
        sentAt: NOV_29_NOON,
        events: [{ kind: 'impression', bannerId: 9101, count: 3, at: '2026-11-29T10:30:00.000Z' }],
      },
    ],
    steps: [ONE_BY_ONE, ONE_BY_ONE, ONE_BY_ONE],
  },
  // an event dated just past Sunday's midnight, received before it, took the day's and the week's counters away
  // from the rest of Sunday; a late one of Sunday received after midnight counted only in the total
  'events either side of a week edge, early and late': {
    orderly: false,
    messages: [
      { group: 0, sentAt: SUNDAY_2357, events: [{ kind: 'impression', bannerId: 9100, count: 60 }] },
      {
        group: 1,
        sentAt: SUNDAY_2357,
        events: [{ kind: 'impression', bannerId: 9100, count: 1, at: '2026-11-30T00:02:00.000Z' }],
      },
      {
        group: 0,
        sentAt: SUNDAY_2357 + 60_000,
        events: [{ kind: 'click', bannerId: 9100, count: 2, at: '2026-11-29T23:58:00.000Z' }],
      },
      {
        group: 2,
        sentAt: SUNDAY_2357 + 240_000,
        events: [{ kind: 'impression', bannerId: 9101, count: 5, at: '2026-11-29T23:59:00.000Z' }],
      },
    ],
    steps: [ONE_BY_ONE, ONE_BY_ONE, ONE_BY_ONE, ONE_BY_ONE],
  },
  // five groups on one banner with one marker held on the counter item (`MODEL_INLINE_MARKERS`): four groups'
  // markers go beside it in the write's transaction; the batch's answer is lost after it committed and a write
  // fault makes the batch's next delivery retry, so each beside write is planned again from the marker items
  'five groups on one banner, markers beside the item, a batch that comes back after a fault': {
    orderly: false,
    groupNameLengths: [128, 40, 128, 1, 100],
    messages: [0, 1, 2, 3, 4].map((group) => ({
      group,
      sentAt: NOV_29_NOON + group * 60_000,
      events: [{ kind: 'impression' as const, bannerId: 9100, count: group + 1 }],
    })),
    steps: [
      { ...ONE_BATCH, timedOut: true },
      { ...ONE_BATCH, faultAt: 2 },
      { ...ONE_BATCH, timedOut: true, raced: true },
    ],
  },
};
