import { systemClock, type Clock } from '../clock';
import { createDocumentClient, createDynamoDbClient } from '../table/document-client';
import { DEFAULT_TABLE_NAME } from '../table/table-definition';
import { TableStore } from '../table/table-store';

/** The ports every function is built from. Lambda builds them from its environment; the local server builds its own. */
export interface Dependencies {
  store: TableStore;
  clock: Clock;
}

export const dependenciesFromEnvironment = (env: NodeJS.ProcessEnv = process.env): Dependencies => ({
  store: new TableStore(
    createDocumentClient(createDynamoDbClient({ endpoint: env.DYNAMODB_ENDPOINT })),
    env.TABLE_NAME ?? DEFAULT_TABLE_NAME,
  ),
  clock: systemClock,
});
