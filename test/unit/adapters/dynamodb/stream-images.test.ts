import { describe, expect, it } from 'vitest';
import { NumberValue } from '../../../../shared/adapters/dynamodb/attribute-values';
import { streamItem, UndecodableRecord } from '../../../../shared/adapters/dynamodb/stream-images';

describe('stream images', () => {
  it('reads every attribute shape a stream carries, empty maps, lists and sets included', () => {
    const item = streamItem({
      s: { S: 'text' },
      n: { N: '12345678901234567890.5' },
      small: { N: '7' },
      yes: { BOOL: true },
      none: { NULL: true },
      base64: { B: 'AQI=' },
      bytes: { B: new Uint8Array([3]) },
      empty: { M: {} },
      nested: { M: { l: { L: [{ S: 'a' }, { M: {} }, { L: [] }] } } },
      ss: { SS: ['a', 'b'] },
      ns: { NS: ['1', '2.5'] },
      bs: { BS: ['AQ=='] },
    });
    expect(item).toEqual({
      s: 'text',
      n: NumberValue.from('12345678901234567890.5'),
      small: 7,
      yes: true,
      none: null,
      base64: new Uint8Array([1, 2]),
      bytes: new Uint8Array([3]),
      empty: {},
      nested: { l: ['a', {}, []] },
      ss: new Set(['a', 'b']),
      ns: new Set([1, 2.5]),
      bs: new Set([new Uint8Array([1])]),
    });
  });

  it.each([
    [{ a: {} }, 'a: an attribute value with 0 members (one expected)'],
    [{ a: { S: 'x', N: '1' } }, 'a: an attribute value with 2 members (one expected)'],
    [{ a: { X: 'x' } }, 'a: an attribute value of unknown type "X"'],
    [{ a: { N: 1 } }, 'a: text or a number that is not a string'],
    [{ a: { M: { b: { L: [{ BOOL: 'yes' }] } } } }, 'a.b[0]: BOOL that is not a boolean'],
    [{ a: { SS: 'x' } }, 'a: a list or set that is not an array'],
    [{ a: 'plain' }, 'a: not an attribute value'],
    ['image', 'image: not a map of attribute values'],
  ])('refuses %j, saying where and why', (image, reason) => {
    expect(() => streamItem(image)).toThrow(new UndecodableRecord(reason));
  });
});
