import { describe, expect, it } from 'vitest';
import { expressionProblems } from '../../../../../shared/adapters/dynamodb/expressions/expression-rules';
import {
  anyOf,
  attributeAbsent,
  below,
  equals,
  UpdateBuilder,
} from '../../../../../shared/adapters/dynamodb/expressions';

describe('the update builder', () => {
  it('declares exactly the names and values its clauses use', () => {
    const built = new UpdateBuilder()
      .set('seq:host-1', '7')
      .add('totalClicks', 2)
      .setIfAbsent('quietSince', 5)
      .remove('seq:old')
      .require(anyOf(attributeAbsent('seq:host-1'), below('seq:host-1', '7')))
      .require(equals('dailyKey', 'D#2026-11-18'))
      .build();
    expect(built).toEqual({
      UpdateExpression: 'SET #a0 = :v0, #a2 = if_not_exists(#a2, :v2) REMOVE #a3 ADD #a1 :v1',
      ConditionExpression: '(attribute_not_exists(#a0) OR #a0 < :v3) AND #a4 = :v4',
      ExpressionAttributeNames: {
        '#a0': 'seq:host-1',
        '#a1': 'totalClicks',
        '#a2': 'quietSince',
        '#a3': 'seq:old',
        '#a4': 'dailyKey',
      },
      ExpressionAttributeValues: { ':v0': '7', ':v1': 2, ':v2': 5, ':v3': '7', ':v4': 'D#2026-11-18' },
    });
    expect(expressionProblems(built)).toEqual([]);
  });

  it('refuses two actions on one attribute, and an update with none', () => {
    expect(() => new UpdateBuilder().set('a', 1).add('a', 1)).toThrow('already changes a');
    expect(() => new UpdateBuilder().build()).toThrow('at least one action');
  });
});
