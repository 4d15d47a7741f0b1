import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { COUNTER_WRITES_PATTERN } from '../../../infra/cdk/counter-stream-filter';
import { isNearCapWrite } from '../../../shared/adapters/dynamodb/counter-stream';

type Rule = string | boolean | { prefix: string };

/** Lambda's filter rules as the pattern uses them: a field matches one of its exact values or prefixes. */
const matches = (pattern: unknown, value: unknown): boolean => {
  if (Array.isArray(pattern))
    return (pattern as Rule[]).some((rule) =>
      typeof rule !== 'object' ? value === rule : typeof value === 'string' && value.startsWith(rule.prefix),
    );
  return Object.entries(pattern as Record<string, unknown>).every(([field, inner]) =>
    matches(inner, (value as Record<string, unknown> | undefined)?.[field]),
  );
};

describe('the counter writes the stream trigger passes', () => {
  it('are the ones the local stream hands to the consumer: counter writes marked as maybe reaching a cap', () => {
    const sortKeys = [
      ...['COUNTERS', 'ACTCTR#7', 'ACTION#7', 'ACTION_SWITCH', 'LIMIT', 'ENTITY', 'HISTORY#x', 'COUNTERSX'],
      // a group's marker kept beside a counter item, or beside an action's counter item: nothing to tell
      ...['GM#COUNTERS#group', 'GM#COUNTERS#2#group', 'GM#ACTCTR#7#group'],
    ];
    const marks = [undefined, { BOOL: true }, { BOOL: false }, { S: 'true' }, { N: '1' }];
    for (const eventName of ['INSERT', 'MODIFY', 'REMOVE'] as const)
      for (const sortKey of sortKeys)
        for (const mark of marks) {
          const record: DynamoDBRecord = {
            eventName,
            dynamodb: {
              Keys: { PK: { S: 'CAMPAIGN#1' }, SK: { S: sortKey } },
              NewImage: { PK: { S: 'CAMPAIGN#1' }, SK: { S: sortKey }, ...(mark ? { xr: mark } : {}) },
            },
          };
          const counter = sortKey === 'COUNTERS' || sortKey.startsWith('ACTCTR#');
          const expected = eventName !== 'REMOVE' && counter && mark?.BOOL === true;
          const name = `${eventName} ${sortKey} ${JSON.stringify(mark)}`;
          expect(matches(COUNTER_WRITES_PATTERN, record), name).toBe(expected);
          expect(isNearCapWrite(record), name).toBe(expected);
        }
  });
});
