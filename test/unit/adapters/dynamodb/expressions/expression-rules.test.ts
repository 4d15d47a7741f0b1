import { NumberValueImpl as NumberValue } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { expressionProblems } from '../../../../../shared/adapters/dynamodb/expressions/expression-rules';

describe('the expression validator', () => {
  it('passes a request DynamoDB takes', () => {
    expect(
      expressionProblems({
        UpdateExpression: 'SET #a = :a, #b = if_not_exists(#b, :b) ADD #c :c REMOVE #d',
        ConditionExpression: '(attribute_not_exists(#a) OR #a < :x) AND NOT #c BETWEEN :x AND :y AND #b IN (:x, :y)',
        ExpressionAttributeNames: { '#a': 'seq:g', '#b': 'quietSince', '#c': 'totalClicks', '#d': 'seq:old' },
        ExpressionAttributeValues: { ':a': '1', ':b': 5, ':c': NumberValue.from('2'), ':x': 1, ':y': 9 },
      }),
    ).toEqual([]);
  });

  it('finds the request of the late-event defect: a name declared and not used', () => {
    // as the recorder built it for a late impression older than the stored quiet time
    const problems = expressionProblems({
      UpdateExpression: 'SET #n2 = :v3, #n5 = if_not_exists(#n5, :v6) ADD #n0 :v1',
      ConditionExpression: '(attribute_not_exists(#n2) OR #n2 < :v4)',
      ExpressionAttributeNames: {
        '#n0': 'totalImpressions',
        '#n2': 'seq:local',
        '#n5': 'quietSince',
        '#n6': 'impressionsSinceConversion',
      },
      ExpressionAttributeValues: { ':v1': 5, ':v3': '2', ':v4': '2', ':v6': 1 },
    });
    expect(problems).toEqual(['ExpressionAttributeNames: #n6 is declared and not used']);
  });

  it.each([
    [{ UpdateExpression: 'SET #a = :v', ExpressionAttributeNames: { '#a': 'x' } }, ':v is used and not declared'],
    [
      {
        UpdateExpression: 'SET #a = :v',
        ExpressionAttributeNames: { '#a': 'x' },
        ExpressionAttributeValues: { ':v': 1, ':w': 2 },
      },
      ':w is declared and not used',
    ],
    [
      { UpdateExpression: 'REMOVE #a', ExpressionAttributeNames: { '#a': 'x' }, ExpressionAttributeValues: {} },
      'ExpressionAttributeValues is empty',
    ],
    [{ UpdateExpression: '', ExpressionAttributeNames: {} }, 'the expression is empty'],
    [{ UpdateExpression: 'SET REMOVE #a', ExpressionAttributeNames: { '#a': 'x' } }, 'the SET clause is empty'],
    [
      {
        UpdateExpression: 'SET #a = :v SET #b = :v',
        ExpressionAttributeNames: { '#a': 'x', '#b': 'y' },
        ExpressionAttributeValues: { ':v': 1 },
      },
      'the SET clause appears twice',
    ],
    [
      {
        UpdateExpression: 'SET #a = :v ADD #b :v',
        ExpressionAttributeNames: { '#a': 'x', '#b': 'x' },
        ExpressionAttributeValues: { ':v': 1 },
      },
      'the paths x and x overlap',
    ],
    [
      {
        UpdateExpression: 'SET #a = :v REMOVE #a.#b',
        ExpressionAttributeNames: { '#a': 'x', '#b': 'y' },
        ExpressionAttributeValues: { ':v': 1 },
      },
      'the paths x and x.y overlap',
    ],
    [
      {
        UpdateExpression: 'SET #a = :v',
        ExpressionAttributeNames: { '#a': 'PK' },
        ExpressionAttributeValues: { ':v': 1 },
      },
      'the key PK',
    ],
    [
      { UpdateExpression: 'SET total = :v', ExpressionAttributeValues: { ':v': 1 } },
      'total is named without a placeholder',
    ],
    [
      {
        UpdateExpression: 'SET #a = :v',
        ConditionExpression: '#a = :v AND',
        ExpressionAttributeNames: { '#a': 'x' },
        ExpressionAttributeValues: { ':v': 1 },
      },
      'ConditionExpression: expected an attribute at the end',
    ],
    [
      {
        UpdateExpression: 'SET #a = :v',
        ConditionExpression: '',
        ExpressionAttributeNames: { '#a': 'x' },
        ExpressionAttributeValues: { ':v': 1 },
      },
      'the condition is empty',
    ],
    [
      {
        UpdateExpression: 'ADD #a :v',
        ExpressionAttributeNames: { '#a': 'x' },
        ExpressionAttributeValues: { ':v': NumberValue.from('1'.repeat(39)) },
      },
      'more than 38 significant digits',
    ],
  ])('refuses %j: %s', (request, problem) => {
    expect(expressionProblems(request).join('; ')).toContain(problem);
  });

  it('holds expressions to 4 KB and 300 operators, and names and values to 2 MB', () => {
    const names = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`#a${i}`, `attribute${i}`]));
    const long = Object.keys(names)
      .map((name) => `${name} = :v`)
      .join(', ');
    const problems = expressionProblems({
      UpdateExpression: `SET ${long}`,
      ConditionExpression: Array.from({ length: 301 }, (_, i) => `#a${i} = :v`).join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':v': 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'UpdateExpression is longer than 4096 bytes',
        expect.stringMatching(/^ConditionExpression has 60\d operators and functions, more than 300$/),
        expect.stringMatching(/^names and values take \d+ bytes, more than 2097152$/),
      ]),
    );
  });
});
