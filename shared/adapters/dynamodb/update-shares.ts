import { TABLE_DEFINITION } from '../../table/table-definition';
import { PARTITION_PREFIX } from '../../table/keys';
import { keyConditionExpression } from './expressions';
import type { TableStore } from './table-store';

const { indexName, partitionKey } = TABLE_DEFINITION.byUpdateShareIndex;

/**
 * The users holding an UPDATE share on any of these entities (an entity and its ancestors: who may read it), each
 * once: one query of the `byUpdateShare` index per entity, all at once.
 */
export const usersWithUpdateShare = async (store: TableStore, entityNames: readonly string[]): Promise<number[]> => {
  const pages = await Promise.all(
    entityNames.map((name) => store.query({ IndexName: indexName, ...keyConditionExpression(partitionKey, name) })),
  );
  const users = new Set(pages.flat().map((item) => Number(String(item.PK).slice(PARTITION_PREFIX.user.length))));
  return [...users];
};
