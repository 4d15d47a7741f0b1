import { NumberValue, type UpdateInput } from '../../shared/adapters/dynamodb/attribute-values';
import type { Item } from '../../shared/adapters/dynamodb/table-store';
import { textFromUnits, unitsFromText } from '../../shared/domain/delivery/exact-units';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** A number's stored size: one byte per two significant digits, plus one [D3]. */
const numberSize = (text: string): number => {
  const digits = text.replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
};

const isNumber = (value: unknown): boolean =>
  typeof value === 'number' || typeof value === 'bigint' || value instanceof NumberValue;

const valueSize = (value: unknown): number => {
  if (typeof value === 'string') return bytes(value);
  if (isNumber(value)) return numberSize(String(value));
  if (typeof value === 'boolean' || value === null) return 1;
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, element) => sum + valueSize(element) + 1, 0);
  if (typeof value === 'object')
    return 3 + Object.entries(value).reduce((sum, [name, element]) => sum + bytes(name) + valueSize(element) + 1, 0);
  throw new Error(`no DynamoDB size for ${typeof value}`);
};

/** An item's size as DynamoDB counts it: each attribute's name and value, in bytes [D3]. */
export const itemSize = (item: Item): number =>
  Object.entries(item).reduce((sum, [name, value]) => sum + bytes(name) + valueSize(value), 0);

/** Write units of one update: the larger of the item's size before and after, per started KB [D3]. */
export const writeUnits = (before: Item, after: Item): number =>
  Math.max(1, Math.ceil(Math.max(itemSize(before), itemSize(after)) / 1024));

const MILLIS = 1000n;
const sum = (stored: unknown, added: unknown): NumberValue =>
  NumberValue.from(
    textFromUnits(unitsFromText(String(stored ?? 0), MILLIS) + unitsFromText(String(added), MILLIS), MILLIS),
  );

/**
 * The item an UpdateItem leaves, for the SET, SET if_not_exists, ADD and REMOVE actions the counter writes use;
 * the condition is taken as met (a first write in a steady stream is the right one).
 */
export const applyUpdate = (item: Item | undefined, request: UpdateInput): Item => {
  const names = request.ExpressionAttributeNames ?? {};
  const values = request.ExpressionAttributeValues ?? {};
  const after: Item = { ...(item ?? request.Key) };
  const expression = request.UpdateExpression ?? '';
  const clause = (keyword: string) =>
    new RegExp(`${keyword} (.*?)(?= (?:SET|ADD|REMOVE) |$)`).exec(expression)?.[1] ?? '';
  for (const [, name, fallback, value] of clause('SET').matchAll(
    /(#\w+) = (?:if_not_exists\(#\w+, (:\w+)\)|(:\w+))/g,
  )) {
    const attribute = names[name!]!;
    if (fallback === undefined) after[attribute] = values[value!];
    else if (after[attribute] === undefined) after[attribute] = values[fallback];
  }
  for (const [, name, value] of clause('ADD').matchAll(/(#\w+) (:\w+)/g))
    after[names[name!]!] = sum(after[names[name!]!], values[value!]);
  for (const [name] of clause('REMOVE').matchAll(/#\w+/g)) delete after[names[name]!];
  return after;
};
