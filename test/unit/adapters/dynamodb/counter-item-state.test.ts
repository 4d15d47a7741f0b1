import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NumberValue, plainItem } from '../../../../shared/adapters/dynamodb/attribute-values';
import { appliedMarkers, counterState } from '../../../../shared/adapters/dynamodb/counter-item-state';
import { markerBytes } from '../../../../shared/adapters/dynamodb/marker-bytes';
import { sequenceText } from '../../../../shared/domain/delivery/counter-plan';
import { markerText } from '../../../../shared/domain/delivery/group-markers';
import {
  counterAttribute as counter,
  keyAttribute,
  markerAttribute,
  QUIET_IMPRESSIONS_ATTRIBUTE,
} from '../../../../shared/adapters/dynamodb/counter-attributes';
import { METRICS, PERIODS } from '../../../../shared/domain/limits/cap-axes';

/** A counter item as the table store hands it over: DynamoDB's answer, numbers exact. */
const stored = (attributes: Record<string, { N: string } | { S: string }>) =>
  plainItem({ PK: { S: 'CAMPAIGN#1' }, SK: { S: 'COUNTERS' }, ...attributes });

describe('reading a counter item', () => {
  it('reads whole counts, budgets in thousandths and counts beyond 2^53 exactly', () => {
    const state = counterState(
      stored({
        [keyAttribute('daily')]: { S: 'D#2026-11-24' },
        [counter('daily', 'impressions')]: { N: '42' },
        [counter('daily', 'budget')]: { N: '500.125' },
        [counter('total', 'impressions')]: { N: '9007199254740993' },
        [counter('total', 'budget')]: { N: '7' },
        [QUIET_IMPRESSIONS_ATTRIBUTE]: { N: '12' },
      }),
      PERIODS,
      METRICS,
    );
    expect(state.keys).toEqual({ daily: 'D#2026-11-24', total: 'T' });
    expect(state.counters.daily).toEqual({ impressions: 42n, budget: 500_125n });
    expect(state.counters.total).toEqual({ impressions: 9_007_199_254_740_993n, budget: 7000n });
    expect(state.impressionsSinceConversion).toBe(12n);
  });

  it("reads each period's previous period and its counters under their own names, and an item without them as none", () => {
    const state = counterState(
      stored({
        [keyAttribute('daily')]: { S: 'D#2026-11-25' },
        [counter('daily', 'clicks')]: { N: '1' },
        [keyAttribute('daily', 'previous')]: { S: 'D#2026-11-24' },
        [counter('daily', 'clicks', 'previous')]: { N: '60' },
        [counter('daily', 'budget', 'previous')]: { N: '0.125' },
      }),
      PERIODS,
      METRICS,
    );
    expect([keyAttribute('daily', 'previous'), counter('weekly', 'budget', 'previous')]).toEqual(['Dk', 'Wb']);
    expect(state.counters.daily).toEqual({ clicks: 1n });
    expect(state.previous).toEqual({ daily: { key: 'D#2026-11-24', tally: { clicks: 60n, budget: 125n } } });
    expect(counterState(stored({ [keyAttribute('daily')]: { S: 'D#2026-11-25' } }), PERIODS, METRICS).previous).toBe(
      undefined,
    );
  });

  it('reads a whole number handed over as a number as it reads its decimal text', () => {
    fc.assert(
      fc.property(fc.nat(), fc.constantFrom(...METRICS), (value, metric) => {
        const attribute = counter('total', metric);
        const asNumber = counterState({ [attribute]: value }, PERIODS, METRICS);
        const asText = counterState({ [attribute]: NumberValue.from(String(value)) }, PERIODS, METRICS);
        expect(asNumber.counters).toEqual(asText.counters);
      }),
    );
  });

  it('reads what it cannot read as 0, and never fails', () => {
    const state = counterState(
      {
        [counter('daily', 'impressions')]: -3,
        [counter('weekly', 'impressions')]: 'lots',
        [QUIET_IMPRESSIONS_ATTRIBUTE]: 1.5,
      },
      PERIODS,
      METRICS,
    );
    expect(state.counters.daily).toEqual({ impressions: 0n });
    expect(state.counters.weekly).toEqual({ impressions: 0n });
    expect(state.impressionsSinceConversion).toBe(1n);
  });

  it('reads the markers only when asked: a read needs the counters, a write the markers', () => {
    const marker = markerText(sequenceText(18_849_496_460_467_696_128n), new Date('2026-11-25T12:00:00Z'));
    const item = {
      PK: 'CAMPAIGN#1',
      SK: 'COUNTERS',
      [counter('total', 'clicks')]: 3,
      [markerAttribute('feed-1')]: markerBytes(marker),
      [markerAttribute('feed-2')]: 'not bytes',
    };
    expect(counterState(item, PERIODS, METRICS)).toMatchObject({ counters: { total: { clicks: 3n } }, applied: {} });
    expect(appliedMarkers(item)).toEqual({ 'feed-1': marker });
    expect(appliedMarkers(undefined)).toEqual({});
  });
});
