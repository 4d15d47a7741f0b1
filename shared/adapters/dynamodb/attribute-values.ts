import type {
  AttributeValue,
  DeleteItemInput,
  PutItemInput,
  QueryInput,
  TransactWriteItem,
  TransactWriteItemsInput,
  UpdateItemInput,
} from '@aws-sdk/client-dynamodb';
import { convertToAttr, convertToNative, NumberValueImpl as NumberValue } from '@aws-sdk/util-dynamodb';

/** An item as the code handles it: plain values, numbers exact (see `exactNumbers`). */
export type Item = Record<string, unknown>;
/** An item as DynamoDB takes and answers it. */
export type StoredItem = Record<string, AttributeValue>;

/** The fields of a request that hold an item or values rather than names and expressions. */
const VALUE_FIELDS = ['Key', 'Item', 'ExpressionAttributeValues', 'ExclusiveStartKey'] as const;
type ValueField = (typeof VALUE_FIELDS)[number];

/** A DynamoDB request with plain values where DynamoDB takes attribute values. */
export type Plain<Input> = {
  [Field in keyof Input]: Field extends ValueField ? Item | Extract<Input[Field], undefined> : Input[Field];
};

export type PutInput = Omit<Plain<PutItemInput>, 'TableName'>;
export type UpdateInput = Omit<Plain<UpdateItemInput>, 'TableName'>;
export type DeleteInput = Omit<Plain<DeleteItemInput>, 'TableName'>;
export type QueryRequest = Omit<Plain<QueryInput>, 'TableName'>;
export type TransactItem = { [Action in keyof TransactWriteItem]: Plain<NonNullable<TransactWriteItem[Action]>> };
export type TransactWriteInput = Omit<TransactWriteItemsInput, 'TransactItems'> & { TransactItems: TransactItem[] };

/**
 * How stored numbers are read: as a JavaScript number when it holds them exactly (ids, caps, versions, every
 * counter below 2^53), otherwise as the exact decimal text in a NumberValue, so that no stored value is rounded and
 * none makes a read fail.
 */
export const exactNumbers = (text: string): number | NumberValue => {
  const number = Number(text);
  return Number.isFinite(number) && String(number) === text ? number : NumberValue.from(text);
};

export { NumberValue };

/** util-dynamodb's options for what it still converts: undefined left out, a class instance refused. */
const WRITE_OPTIONS = { removeUndefinedValues: true, convertClassInstanceToMap: false };
const READ_OPTIONS = { wrapNumbers: exactNumbers };

/** What util-dynamodb would write as a map: an object of class Object, or of no class. */
const isPlainObject = (value: object): value is Record<string, unknown> => {
  const { constructor } = value as { constructor?: unknown };
  return constructor === Object || !constructor;
};

/**
 * A value as DynamoDB takes it, as util-dynamodb's `marshall` converts it. The kinds every item is made of
 * (strings, booleans, null, safe numbers, lists, maps) are converted here, since util-dynamodb checks each value
 * against every kind it knows by its constructor's name and builds three strings for every number (a tenth of a
 * millisecond on a write's transaction); anything else (an exact number, a set, binary, a refusal) goes to it.
 */
const toAttribute = (value: unknown): AttributeValue => {
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'boolean') return { BOOL: value };
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER)
    return { N: String(value) };
  if (value === null) return { NULL: true };
  if (Array.isArray(value)) {
    const list: AttributeValue[] = [];
    for (const element of value)
      if (element !== undefined && typeof element !== 'function') list.push(toAttribute(element));
    return { L: list };
  }
  if (typeof value === 'object' && isPlainObject(value)) return { M: storedItem(value) };
  return convertToAttr(value, WRITE_OPTIONS);
};

/** Undefined attributes are left out; a class instance (a NumberValue aside) is refused rather than flattened. */
export const storedItem = (item: Item): StoredItem => {
  const stored: StoredItem = {};
  for (const name in item) {
    const value = item[name];
    if (value !== undefined && typeof value !== 'function') stored[name] = toAttribute(value);
  }
  return stored;
};

/** A value as the code reads it, as util-dynamodb's `unmarshall` converts it; sets and binary by util-dynamodb. */
const toPlain = (attribute: AttributeValue): unknown => {
  if (attribute.S !== undefined) return attribute.S;
  if (attribute.N !== undefined) return exactNumbers(attribute.N);
  if (attribute.M !== undefined) return plainItem(attribute.M);
  if (attribute.BOOL !== undefined) return Boolean(attribute.BOOL);
  if (attribute.NULL !== undefined) return null;
  if (attribute.L !== undefined) return attribute.L.map(toPlain);
  return convertToNative(attribute, READ_OPTIONS);
};

export const plainItem = (stored: StoredItem): Item => {
  const item: Item = {};
  for (const name of Object.keys(stored)) item[name] = toPlain(stored[name]!);
  return item;
};

/** The request as DynamoDB takes it: its key, item and expression values as attribute values. Pure. */
export const storedRequest = <Input extends object>(request: Plain<Input>): Input => {
  const stored: Record<string, unknown> = { ...request };
  for (const field of VALUE_FIELDS) {
    const value = stored[field];
    if (value !== undefined) stored[field] = storedItem(value as Item);
  }
  return stored as Input;
};

const storedTransactItem = (item: TransactItem): TransactWriteItem => {
  const stored: Record<string, unknown> = {};
  for (const action in item) stored[action] = storedRequest(item[action as keyof TransactItem] as object);
  return stored as TransactWriteItem;
};

export const storedTransaction = (input: TransactWriteInput): TransactWriteItemsInput =>
  Object.assign({}, input, { TransactItems: input.TransactItems.map(storedTransactItem) });
