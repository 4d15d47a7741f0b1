import { describe, expect, it } from 'vitest';
import { counterWriteRequest, counterWriteTransaction } from '../../shared/adapters/dynamodb/counter-requests';
import { applyToCounterItem } from '../../shared/adapters/dynamodb/counter-store';
import { counterAttribute } from '../../shared/adapters/dynamodb/counter-attributes';
import { planCounterWrite, sequenceText, type PendingMessage } from '../../shared/domain/delivery/counter-plan';
import { WriteConflict } from '../../shared/domain/errors';
import { METRICS, PERIODS } from '../../shared/domain/limits/cap-axes';
import { countersKey, GROUP_MARKER_PREFIX } from '../../shared/table/keys';
import { useTestService } from '../support/local-service';

/**
 * A container guesses which groups a counter item holds itself (`keptBeside` in the counter store) and writes the
 * others' messages beside it without a read. Whatever it guesses, DynamoDB refuses a marker beside the item for a
 * group whose marker the item holds: a redelivered message is never applied a second time from a wrong guess.
 */
const ctx = useTestService({ catalogFile: null });
const NOW = new Date('2026-11-27T12:00:00Z');
const KEY = countersKey('BANNER', 4242);
const TOTAL_CLICKS = counterAttribute('total', 'clicks');

const message = (group: string): PendingMessage => ({
  messageId: `${group}-1`,
  group,
  sequence: sequenceText(1),
  contribution: {
    target: { type: 'BANNER', id: 4242 },
    periods: { total: new Map([['T', { clicks: 1n }]]) },
    impressions: [],
    conversions: [],
  },
});

describe("a container's wrong guess of the groups a counter item holds", () => {
  it('cannot put a marker beside the item for a group the item holds: the redelivery is refused', async () => {
    const { store } = ctx.service.dependencies;
    const item = { key: KEY, periods: PERIODS, metrics: METRICS };
    await applyToCounterItem(store, item, [message('inline-group')], { now: NOW, inlineMarkers: 1 });
    expect(Number((await store.get(KEY))?.[TOTAL_CLICKS])).toBe(1);

    // the blind write of a container that guesses the item holds no group of the batch: every marker beside it
    const guessed = planCounterWrite(undefined, [message('inline-group')], item, {
      now: NOW,
      knownInline: new Set(),
      inlineMarkers: 1,
    })!;
    expect(Object.keys(guessed.beside)).toEqual(['inline-group']);
    const transaction = counterWriteTransaction(store.tableName, counterWriteRequest(KEY, guessed), guessed);
    await expect(store.transactWrite(transaction)).rejects.toBeInstanceOf(WriteConflict);

    expect(Number((await store.get(KEY))?.[TOTAL_CLICKS])).toBe(1);
    expect(await store.queryPartition(KEY.PK, `${GROUP_MARKER_PREFIX}${KEY.SK}#`)).toEqual([]);
  });
});
