import { TABLE_DEFINITION } from '../../table/table-definition';
import type { QueryRequest } from './attribute-values';
import { keyConditionExpression } from './condition-expression';
import type { Item, TableStore } from './table-store';

/** The query of the `byParent` index for the children of one parent (an entity's partition key). */
export const childrenQuery = (parentPK: string): QueryRequest => {
  const { indexName, partitionKey } = TABLE_DEFINITION.byParentIndex;
  return { IndexName: indexName, ...keyConditionExpression(partitionKey, parentPK) };
};

/** The entity items whose parent is `parentPK`. */
export const loadChildren = (store: TableStore, parentPK: string): Promise<Item[]> =>
  store.query(childrenQuery(parentPK));
