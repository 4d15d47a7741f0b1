import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { COUNTER_WRITES_PATTERN } from '../../../infra/cdk/counter-stream-filter';
import { isCounterChange } from '../../../shared/adapters/dynamodb/counter-stream';

type Rule = string | { prefix: string };

/** Lambda's filter rules as the pattern uses them: a field matches one of its exact strings or prefixes. */
const matches = (pattern: unknown, value: unknown): boolean => {
  if (Array.isArray(pattern))
    return (pattern as Rule[]).some((rule) =>
      typeof rule === 'string' ? value === rule : typeof value === 'string' && value.startsWith(rule.prefix),
    );
  return Object.entries(pattern as Record<string, unknown>).every(([field, inner]) =>
    matches(inner, (value as Record<string, unknown> | undefined)?.[field]),
  );
};

describe('the counter writes the stream trigger passes', () => {
  it('are the ones the local stream hands to the consumer', () => {
    const sortKeys = [
      ...['COUNTERS', 'ACTCTR#7', 'ACTION#7', 'ACTION_SWITCH', 'LIMIT', 'ENTITY', 'HISTORY#x', 'COUNTERSX'],
      // a group's marker kept beside a counter item, or beside an action's counter item: nothing to tell
      ...['GM#COUNTERS#group', 'GM#COUNTERS#2#group', 'GM#ACTCTR#7#group'],
    ];
    for (const eventName of ['INSERT', 'MODIFY', 'REMOVE'] as const)
      for (const sortKey of sortKeys) {
        const record: DynamoDBRecord = {
          eventName,
          dynamodb: { Keys: { PK: { S: 'CAMPAIGN#1' }, SK: { S: sortKey } } },
        };
        const expected = eventName !== 'REMOVE' && (sortKey === 'COUNTERS' || sortKey.startsWith('ACTCTR#'));
        expect(matches(COUNTER_WRITES_PATTERN, record), `${eventName} ${sortKey}`).toBe(expected);
        expect(isCounterChange(record), `${eventName} ${sortKey}`).toBe(expected);
      }
  });
});
