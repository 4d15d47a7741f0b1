import { NumberValue, type UpdateInput } from '../../shared/adapters/dynamodb/attribute-values';
import type { Item } from '../../shared/adapters/dynamodb/table-store';
import { textFromUnits, unitsFromText } from '../../shared/domain/delivery/exact-units';

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
