import type { Entity } from '../../domain/access';
import { TABLE_DEFINITION } from '../../table/table-definition';
import type { QueryRequest } from './attribute-values';
import { keyConditionExpression } from './expressions';
import { entityFromItem } from './grants-store';
import type { TableStore } from './table-store';

/** The query of the `byParent` index for the children of one parent (an entity's partition key). */
export const childrenQuery = (parentPK: string): QueryRequest => {
  const { indexName, partitionKey } = TABLE_DEFINITION.byParentIndex;
  return { IndexName: indexName, ...keyConditionExpression(partitionKey, parentPK) };
};

/** The entities whose parent is `parentPK`, decoded from the index's items. */
export const loadChildren = async (store: TableStore, parentPK: string): Promise<Entity[]> =>
  (await store.query(childrenQuery(parentPK))).flatMap((item) => entityFromItem(item) ?? []);
