import type { DynamoDBRecord } from 'aws-lambda';
import type { LimitChanged } from '../../domain/history/limit-changed';
import { ENTITY_TYPES, type EntityType } from '../../domain/levels';
import { HISTORY_PREFIX, VERSIONED_HISTORY_PREFIX } from '../../table/keys';
import { entryOf } from './history-store';
import { streamItem, UndecodableRecord } from './stream-images';
import type { Item } from './attribute-values';

/** The entity a stream record's key names; an item of any other kind is an `UndecodableRecord`. */
export const streamEntityOf = (record: DynamoDBRecord): { type: EntityType; id: number } => {
  const partitionKey = record.dynamodb?.Keys?.PK?.S;
  const [type, id, ...rest] = (partitionKey ?? '').split('#');
  if (!ENTITY_TYPES.includes(type as EntityType) || !/^[1-9]\d{0,15}$/.test(id ?? '') || rest.length > 0)
    throw new UndecodableRecord(`an item of a kind the consumer does not know: PK ${JSON.stringify(partitionKey)}`);
  return { type: type as EntityType, id: Number(id) };
};

const isObject = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** What every history entry holds, checked before it is told. */
const checkedEntry = (item: Item): Item => {
  if (typeof item.at !== 'string' || typeof item.operation !== 'string' || !isObject(item.by))
    throw new UndecodableRecord('a history entry without its at, operation and by');
  if (item.fields !== undefined && !isObject(item.fields))
    throw new UndecodableRecord('a history entry whose fields are not a map');
  return item;
};

/** What the trigger's filter criteria pass (the stack declares the same): a new item under `HISTORY#`. */
export const isNewHistoryEntry = (record: DynamoDBRecord): boolean =>
  record.eventName === 'INSERT' && (record.dynamodb?.Keys?.SK?.S ?? '').startsWith(HISTORY_PREFIX);

/**
 * A table stream record as a LimitChanged event: only a new history entry is one (a reset's entry written again
 * when its flush is retried is a MODIFY, not a second change); anything else is undefined. A new entry that cannot be
 * decoded or is not an entity's is an `UndecodableRecord`.
 */
export const limitChangedOf = (record: DynamoDBRecord): LimitChanged | undefined => {
  const image = record.dynamodb?.NewImage;
  const sortKey = record.dynamodb?.Keys?.SK?.S ?? '';
  const partitionKey = record.dynamodb?.Keys?.PK?.S ?? '';
  if (!isNewHistoryEntry(record)) return undefined;
  const { type, id } = streamEntityOf(record);
  if (!image) throw new UndecodableRecord('a new history entry without its new image');
  const item = checkedEntry(streamItem(image));
  return {
    entityType: type,
    entityId: id,
    // a version is unique within its entity only (`CAMPAIGN#100#V#000000000007`); a time and random id everywhere
    changeId: sortKey.startsWith(VERSIONED_HISTORY_PREFIX)
      ? `${partitionKey}#${sortKey.slice(HISTORY_PREFIX.length)}`
      : sortKey.slice(HISTORY_PREFIX.length),
    change: entryOf(item),
  };
};
