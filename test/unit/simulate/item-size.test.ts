import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { itemSize, numberSize, valueSize, writeUnits } from '../../../scripts/simulate/item-size';

describe('an item’s size as DynamoDB bills it', () => {
  it.each([
    ['12345', 4],
    ['1234', 3],
    ['1.50', 2],
    ['-0.001', 2],
    ['1000', 2],
    ['0', 1],
    ['1.5E+3', 2],
    ['9'.repeat(38), 20],
  ])('a number %s takes one byte per two significant digits plus one: %i', (text, bytes) => {
    expect(numberSize(text)).toBe(bytes);
  });

  it.each<[string, AttributeValue, number]>([
    ['a string: its UTF-8 bytes', { S: 'Amazon' }, 6],
    ['a string of two-byte characters', { S: 'éé' }, 4],
    ['a binary value: its raw bytes', { B: new Uint8Array(10) }, 10],
    ['a Boolean', { BOOL: true }, 1],
    ['a null', { NULL: true }, 1],
    ['an empty map: 3 bytes', { M: {} }, 3],
    [
      'a map: 3 bytes, and each element its name, value and 1 byte',
      { M: { a: { S: 'xy' }, bc: { N: '7' } } },
      3 + 4 + 5,
    ],
    ['an empty list: 3 bytes', { L: [] }, 3],
    ['a list: 3 bytes, and each element its value and 1 byte', { L: [{ S: 'a' }, { S: 'bc' }] }, 3 + 2 + 3],
    ['a nested map', { M: { m: { M: { x: { BOOL: false } } } } }, 3 + (1 + (3 + 3) + 1)],
    ['a string set', { SS: ['ab', 'c'] }, 3],
    ['a number set', { NS: ['12345', '1'] }, 6],
  ])('%s', (_, value, bytes) => {
    expect(valueSize(value)).toBe(bytes);
  });

  it('counts every attribute’s name in UTF-8 bytes beside its value', () => {
    expect(itemSize({ PK: { S: 'ADVERTISER#7' }, SK: { S: 'COUNTERS' }, dailyImpressions: { N: '1500' } })).toBe(
      2 + 12 + 2 + 8 + 16 + 2,
    );
    expect(itemSize({ né: { S: 'x' } })).toBe(3 + 1);
  });
});

describe('write units as DynamoDB bills a write', () => {
  it.each([
    ['a 500-byte item takes what a 1 KB item takes', 0, 500, false, 1],
    ['exactly 1 KB', 0, 1024, false, 1],
    ['one byte over 1 KB starts a second', 0, 1025, false, 2],
    ['a 2 KB item: 2 units', 0, 2048, false, 2],
    ['a 2 KB item in a transaction: 4 units', 0, 2048, true, 4],
    ['a 3,500-byte item rounds up to 4 KB', 0, 3500, false, 4],
    ['an update is billed by the larger size, before', 3500, 500, false, 4],
    ['an update is billed by the larger size, after', 500, 3500, false, 4],
    ['a delete of an absent item still takes one unit', 0, 0, false, 1],
  ])('%s', (_, before, after, transactional, units) => {
    expect(writeUnits(before, after, transactional)).toBe(units);
  });
});
