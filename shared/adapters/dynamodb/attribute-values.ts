import type {
  AttributeValue,
  DeleteItemInput,
  PutItemInput,
  QueryInput,
  TransactWriteItem,
  TransactWriteItemsInput,
  UpdateItemInput,
} from '@aws-sdk/client-dynamodb';
import { marshall, NumberValueImpl as NumberValue, unmarshall } from '@aws-sdk/util-dynamodb';

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

/** Undefined attributes are left out; a class instance (a NumberValue aside) is refused rather than flattened. */
export const storedItem = (item: Item): StoredItem =>
  marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: false }) as StoredItem;

export const plainItem = (stored: StoredItem): Item => unmarshall(stored, { wrapNumbers: exactNumbers });

/** The request as DynamoDB takes it: its key, item and expression values as attribute values. Pure. */
export const storedRequest = <Input extends object>(request: Plain<Input>): Input => {
  const stored: Record<string, unknown> = { ...request };
  for (const field of VALUE_FIELDS) {
    const value = stored[field];
    if (value !== undefined) stored[field] = storedItem(value as Item);
  }
  return stored as Input;
};

export const storedTransaction = ({ TransactItems, ...rest }: TransactWriteInput): TransactWriteItemsInput => ({
  ...rest,
  TransactItems: TransactItems.map(
    (item) =>
      Object.fromEntries(
        Object.entries(item).map(([action, request]) => [action, storedRequest(request as object)]),
      ) as TransactWriteItem,
  ),
});
