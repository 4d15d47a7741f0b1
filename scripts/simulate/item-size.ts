import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/**
 * An item's size and a write's units as DynamoDB bills them (Developer Guide, "DynamoDB item sizes and formats" and
 * "DynamoDB read and write operations"), on items as DynamoDB stores them (attribute values with their types). Pure.
 */

export const KILOBYTE = 1024;

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * A number's size: one byte per two significant digits, plus one. Leading and trailing zeros are trimmed, as are the
 * sign, the decimal point and an exponent; zero has no significant digit and takes the one byte.
 */
export const numberSize = (text: string): number => {
  const digits = text
    .replace(/[eE].*$/, '')
    .replace(/^[-+]/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(digits.length / 2) + 1;
};

/** A value's size without its name: a list or map takes 3 bytes, and each of its elements 1 byte more. */
export const valueSize = (value: AttributeValue): number => {
  if (value.S !== undefined) return utf8Bytes(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((sum, text) => sum + utf8Bytes(text), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, text) => sum + numberSize(text), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, bytes) => sum + bytes.byteLength, 0);
  if (value.L !== undefined) return 3 + value.L.reduce((sum, element) => sum + valueSize(element) + 1, 0);
  if (value.M !== undefined)
    return (
      3 + Object.entries(value.M).reduce((sum, [name, element]) => sum + utf8Bytes(name) + valueSize(element) + 1, 0)
    );
  throw new Error(`no DynamoDB size for the attribute value ${JSON.stringify(value)}`);
};

/** An item's size: each attribute's name (UTF-8 bytes) and value. */
export const itemSize = (item: Readonly<Record<string, AttributeValue>>): number =>
  Object.entries(item).reduce((sum, [name, value]) => sum + utf8Bytes(name) + valueSize(value), 0);

/**
 * Write units of one item's write: one per started KB of the larger of the item's size before and after (an absent
 * item is 0 bytes), at least one; twice that inside a transaction.
 */
export const writeUnits = (sizeBefore: number, sizeAfter: number, transactional = false): number =>
  Math.max(1, Math.ceil(Math.max(sizeBefore, sizeAfter) / KILOBYTE)) * (transactional ? 2 : 1);
