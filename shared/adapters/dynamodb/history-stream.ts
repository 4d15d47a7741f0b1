import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { LimitChanged } from '../../domain/history/limit-changed';
import { ENTITY_TYPES, type EntityType } from '../../domain/levels';
import { HISTORY_PREFIX, VERSIONED_HISTORY_PREFIX } from '../../table/keys';
import { plainItem } from './attribute-values';
import { entryOf } from './history-store';

/** What the trigger's filter criteria pass (the stack declares the same): a new item under `HISTORY#`. */
export const isNewHistoryEntry = (record: DynamoDBRecord): boolean =>
  record.eventName === 'INSERT' && (record.dynamodb?.Keys?.SK?.S ?? '').startsWith(HISTORY_PREFIX);

/**
 * A table stream record as a LimitChanged event: only a new history entry is one (a reset's entry written again
 * when its flush is retried is a MODIFY, not a second change); anything else is undefined.
 */
export const limitChangedOf = (record: DynamoDBRecord): LimitChanged | undefined => {
  const image = record.dynamodb?.NewImage;
  const sortKey = record.dynamodb?.Keys?.SK?.S ?? '';
  const partitionKey = record.dynamodb?.Keys?.PK?.S ?? '';
  const [type, id] = partitionKey.split('#');
  if (!isNewHistoryEntry(record) || !image) return undefined;
  if (!ENTITY_TYPES.includes(type as EntityType)) return undefined;
  const item = plainItem(image as Record<string, AttributeValue>);
  return {
    entityType: type as EntityType,
    entityId: Number(id),
    // a version is unique within its entity only (`CAMPAIGN#100#V#000000000007`); a time and random id everywhere
    changeId: sortKey.startsWith(VERSIONED_HISTORY_PREFIX)
      ? `${partitionKey}#${sortKey.slice(HISTORY_PREFIX.length)}`
      : sortKey.slice(HISTORY_PREFIX.length),
    change: entryOf(item),
  };
};
