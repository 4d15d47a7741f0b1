import type { GeneratedCase } from './generated-case';

const NOV_29_NOON = Date.parse('2026-11-29T12:00:00Z');
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
};
