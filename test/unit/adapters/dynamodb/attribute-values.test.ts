import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  exactNumbers,
  NumberValue,
  plainItem,
  storedItem,
  storedRequest,
  storedTransaction,
} from '../../../../shared/adapters/dynamodb/attribute-values';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

/** What a conversion gave: its value, or the fact that it refused. */
const outcome = (convert: () => unknown): { value: unknown } | { refused: true } => {
  try {
    return { value: convert() };
  } catch {
    return { refused: true };
  }
};

/** Every kind of value an item may hold, and some it may not (a date, NaN, an unsafe number, an empty set). */
const { anyValue } = fc.letrec<{ anyValue: unknown }>((tie) => ({
  anyValue: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.integer(),
    fc.double(),
    fc.constantFrom(Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, -0),
    fc.bigInt(),
    fc.bigInt().map((big) => NumberValue.from(`${big}.125`)),
    fc.uniqueArray(fc.string(), { maxLength: 3 }).map((strings) => new Set(strings)),
    fc.uniqueArray(fc.integer(), { minLength: 1, maxLength: 3 }).map((numbers) => new Set(numbers)),
    fc.uint8Array({ maxLength: 4 }),
    fc.constant(new Date(0)),
    fc.constant(() => 1),
    fc.array(tie('anyValue'), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie('anyValue'), { maxKeys: 4 }),
    fc
      .dictionary(fc.string(), tie('anyValue'), { maxKeys: 3 })
      .map((entries) => Object.assign(Object.create(null) as object, entries)),
  ),
}));

describe('items between the code and DynamoDB', () => {
  it('convert the key, the item and the expression values of a request, and nothing else', () => {
    const request = storedRequest({
      TableName: 't',
      Key: { PK: 'CAMPAIGN#1', SK: 'LIMIT' },
      UpdateExpression: 'SET #v = :v',
      ConditionExpression: 'version = :old',
      ExpressionAttributeNames: { '#v': 'version' },
      ExpressionAttributeValues: { ':v': 2, ':old': 1 },
      ReturnValues: 'ALL_NEW',
    });
    expect(request).toEqual({
      TableName: 't',
      Key: { PK: { S: 'CAMPAIGN#1' }, SK: { S: 'LIMIT' } },
      UpdateExpression: 'SET #v = :v',
      ConditionExpression: 'version = :old',
      ExpressionAttributeNames: { '#v': 'version' },
      ExpressionAttributeValues: { ':v': { N: '2' }, ':old': { N: '1' } },
      ReturnValues: 'ALL_NEW',
    });
  });

  it('leave a field the request does not have absent', () => {
    expect(storedRequest({ TableName: 't', KeyConditionExpression: 'PK = :pk', ExclusiveStartKey: undefined })).toEqual(
      {
        TableName: 't',
        KeyConditionExpression: 'PK = :pk',
        ExclusiveStartKey: undefined,
      },
    );
  });

  it('convert every action of a transaction', () => {
    const transaction = storedTransaction({
      TransactItems: [
        { Put: { TableName: 't', Item: { PK: 'A#1', SK: 'B', caps: { dailyClicksLimit: 5 } } } },
        { Delete: { TableName: 't', Key: { PK: 'A#1', SK: 'C' } } },
        {
          ConditionCheck: {
            TableName: 't',
            Key: { PK: 'A#1', SK: 'D' },
            ConditionExpression: 'v = :v',
            ExpressionAttributeValues: { ':v': true },
          },
        },
      ],
      ClientRequestToken: 'token',
    });
    expect(transaction).toEqual({
      TransactItems: [
        {
          Put: {
            TableName: 't',
            Item: { PK: { S: 'A#1' }, SK: { S: 'B' }, caps: { M: { dailyClicksLimit: { N: '5' } } } },
          },
        },
        { Delete: { TableName: 't', Key: { PK: { S: 'A#1' }, SK: { S: 'C' } } } },
        {
          ConditionCheck: {
            TableName: 't',
            Key: { PK: { S: 'A#1' }, SK: { S: 'D' } },
            ConditionExpression: 'v = :v',
            ExpressionAttributeValues: { ':v': { BOOL: true } },
          },
        },
      ],
      ClientRequestToken: 'token',
    });
  });

  it('leave undefined attributes out and write an exact number as its text', () => {
    expect(storedItem({ a: undefined, b: NumberValue.from('12345678901234567890.125') })).toEqual({
      b: { N: '12345678901234567890.125' },
    });
  });

  it('refuse a class instance rather than store its fields', () => {
    expect(() => storedItem({ when: new Date(0) })).toThrow();
  });

  it('read a number as a number when it is exact, otherwise as its exact text', () => {
    const item = plainItem({ small: { N: '42' }, money: { N: '0.1' }, big: { N: '9007199254740993' } });
    expect(item.small).toBe(42);
    expect(item.money).toBe(0.1);
    expect(item.big).toBeInstanceOf(NumberValue);
    expect(String(item.big)).toBe('9007199254740993');
  });

  it('read back what they wrote', () => {
    const item = { PK: 'CAMPAIGN#1', SK: 'LIMIT', caps: { totalBudgetLimit: 500.5 }, tags: ['a'], on: false };
    expect(plainItem(storedItem(item))).toEqual(item);
  });

  it(`convert every value as util-dynamodb does, refusals included, both ways (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), anyValue, { maxKeys: 6 }), (item) => {
        const expected = outcome(() =>
          marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: false }),
        );
        const actual = outcome(() => storedItem(item));
        expect(actual).toEqual(expected);
        if ('value' in expected) {
          const stored = expected.value as Parameters<typeof plainItem>[0];
          expect(plainItem(stored)).toEqual(unmarshall(stored, { wrapNumbers: exactNumbers }));
        }
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});
