import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { LimitChanged } from '../../domain/history/limit-changed';
import { ENTITY_TYPES, type EntityType } from '../../domain/levels';
import { HISTORY_PREFIX } from '../../table/keys';
import { exactNumbers } from './document-client';
import { entryOf } from './history-store';

/**
 * A table stream record as a LimitChanged event: only a new history entry is one (a reset's entry written again
 * when its flush is retried is a MODIFY, not a second change); anything else is undefined.
 */
export const limitChangedOf = (record: DynamoDBRecord): LimitChanged | undefined => {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return undefined;
  const item = unmarshall(image as Record<string, AttributeValue>, { wrapNumbers: exactNumbers });
  const sortKey = String(item.SK);
  const [type, id] = String(item.PK).split('#');
  if (!sortKey.startsWith(HISTORY_PREFIX) || !ENTITY_TYPES.includes(type as EntityType)) return undefined;
  return {
    entityType: type as EntityType,
    entityId: Number(id),
    changeId: sortKey.slice(HISTORY_PREFIX.length),
    change: entryOf(item),
  };
};
