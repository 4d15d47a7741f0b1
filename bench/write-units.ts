import {
  GetItemCommand,
  type AttributeValue,
  type ConsumedCapacity,
  type DynamoDBClient,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import { itemSize, writeUnits } from '../scripts/simulate/item-size';
import type { RequestTaps } from '../infra/local/request-taps';

type Key = Record<string, AttributeValue>;

/** One item written by one request: its size before and after, and the write units DynamoDB bills for it. */
export interface ItemWrite {
  command: string;
  key: string;
  sizeBefore: number;
  sizeAfter: number;
  units: number;
}

/** The writes of one request, and what DynamoDB Local reported it consumed (absent when the request failed). */
export interface RequestWrites {
  items: ItemWrite[];
  reportedUnits?: number;
}

interface WriteInput {
  TableName?: string;
  Key?: Key;
  Item?: Key;
  ReturnConsumedCapacity?: string;
  TransactItems?: TransactWriteItem[];
}

const KEY_NAMES = ['PK', 'SK'] as const;
const keyOf = (item: Key): Key => Object.fromEntries(KEY_NAMES.map((name) => [name, item[name]!]));

/** The items a write request writes: its key, or each of a transaction's (condition checks included). */
const writtenItems = (command: string, input: WriteInput): { table: string; key: Key }[] => {
  if (command === 'TransactWriteItemsCommand')
    return (input.TransactItems ?? []).map((action) => {
      const one = action.Put ?? action.Update ?? action.Delete ?? action.ConditionCheck!;
      return { table: one.TableName!, key: 'Item' in one ? keyOf(one.Item!) : one.Key! };
    });
  return [{ table: input.TableName!, key: input.Key ?? keyOf(input.Item!) }];
};

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand']);

const reported = (consumed: ConsumedCapacity | ConsumedCapacity[] | undefined): number | undefined =>
  consumed === undefined
    ? undefined
    : [consumed].flat().reduce((sum, { CapacityUnits }) => sum + (CapacityUnits ?? 0), 0);

/**
 * Write units as DynamoDB bills them, measured around every write request the local service's table client sends
 * (through its `requestTaps`) while `during` runs: the
 * items it writes are read (strongly consistent, through `probe`, another client) before and after it, sized as
 * DynamoDB sizes them, and each billed by the larger size, per started KB (twice in a transaction). The request
 * asks for its ConsumedCapacity too, so that DynamoDB Local's own figure stands beside the computed one.
 */
export const probeWriteUnits = (taps: RequestTaps, probe: DynamoDBClient) => {
  let recording: RequestWrites[] | undefined;
  const sizeOf = async (table: string, key: Key) => {
    const { Item } = await probe.send(new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true }));
    return Item ? itemSize(Item) : 0;
  };
  taps.add(
    (next, context) => async (args) => {
      const command = String(context.commandName);
      if (!recording || !WRITES.has(command)) return next(args);
      const input = args.input as WriteInput;
      input.ReturnConsumedCapacity = 'TOTAL';
      const items = writtenItems(command, input);
      const before = await Promise.all(items.map(({ table, key }) => sizeOf(table, key)));
      const entry: RequestWrites = { items: [] };
      recording.push(entry);
      try {
        const result = await next(args);
        entry.reportedUnits = reported((result.output as { ConsumedCapacity?: ConsumedCapacity }).ConsumedCapacity);
        return result;
      } finally {
        const after = await Promise.all(items.map(({ table, key }) => sizeOf(table, key)));
        entry.items = items.map(({ key }, i) => ({
          command,
          key: `${key.PK?.S} ${key.SK?.S}`,
          sizeBefore: before[i]!,
          sizeAfter: after[i]!,
          units: writeUnits(before[i]!, after[i]!, command === 'TransactWriteItemsCommand'),
        }));
      }
    },
    { step: 'initialize', name: 'benchWriteUnitsProbe' },
  );
  return {
    /** Runs `work` and returns the write requests it sent, each with its items' sizes and units. */
    async during(work: () => Promise<unknown>): Promise<RequestWrites[]> {
      recording = [];
      try {
        await work();
        return recording;
      } finally {
        recording = undefined;
      }
    },
  };
};

export interface WriteUnitsSummary {
  requests: number;
  items: number;
  units: number;
  /** Requests refused on their condition: billed too (the item's size, at least a unit), and Local reports nothing. */
  failedRequests: number;
  /** DynamoDB Local's ConsumedCapacity over the requests that succeeded, and how many of them it differs on. */
  reportedUnits: number;
  requestsDiffering: number;
  /** How many item writes cost n units (n → count), and the largest item written. */
  itemsByUnits: Record<number, number>;
  largestItemBytes: number;
}

/** Totals of recorded write requests. Pure. */
export const summariseWrites = (requests: readonly RequestWrites[]): WriteUnitsSummary => {
  const items = requests.flatMap((request) => request.items);
  const unitsOf = (request: RequestWrites) => request.items.reduce((sum, { units }) => sum + units, 0);
  const itemsByUnits: Record<number, number> = {};
  for (const { units } of items) itemsByUnits[units] = (itemsByUnits[units] ?? 0) + 1;
  return {
    requests: requests.length,
    items: items.length,
    units: items.reduce((sum, { units }) => sum + units, 0),
    failedRequests: requests.filter((request) => request.reportedUnits === undefined).length,
    reportedUnits: requests.reduce((sum, request) => sum + (request.reportedUnits ?? 0), 0),
    requestsDiffering: requests.filter(
      (request) => request.reportedUnits !== undefined && request.reportedUnits !== unitsOf(request),
    ).length,
    itemsByUnits,
    largestItemBytes: Math.max(0, ...items.map(({ sizeBefore, sizeAfter }) => Math.max(sizeBefore, sizeAfter))),
  };
};
