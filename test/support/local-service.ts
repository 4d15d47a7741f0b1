import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { startLocalService, type LocalService, type LocalServiceOptions } from '../../infra/local/local-service';
import type { Item } from '../../shared/adapters/dynamodb/table-store';
import { ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { plainItem } from '../../shared/adapters/dynamodb/attribute-values';

/**
 * A local service on the run's DynamoDB Local, on a free port, in a table of its own and in a database of its own
 * (an access key of its own; the run's DynamoDB Local has no `-sharedDb`). A write to DynamoDB Local costs more the
 * more stream records its database holds, every table's, deleted ones' too: in one database for the whole run, the
 * last files' writes cost several times the first ones' (CONTRIBUTING.md, "Test speed").
 */
export const startTestService = (options: LocalServiceOptions = {}): Promise<LocalService> =>
  startLocalService({
    dynamoEndpoint: inject('dynamoEndpoint'),
    dynamoAccessKeyId: `test${randomUUID().replaceAll('-', '')}`,
    tableName: `test-${randomUUID()}`,
    port: 0,
    ...options,
  });

/** Starts one service for the file's tests and stops it after them. */
export const useTestService = (options: LocalServiceOptions = {}): { readonly service: LocalService } => {
  const holder = {} as { service: LocalService };
  beforeAll(async () => {
    holder.service = await startTestService(options);
  });
  afterAll(async () => {
    await holder.service?.stop();
  });
  return holder;
};

/** Every item of the service's table, sorted, for before/after comparisons. */
export const scanTable = async (service: LocalService): Promise<Item[]> => {
  const { store } = service.dependencies;
  const items: Item[] = [];
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await store.client.send(
      new ScanCommand({ TableName: store.tableName, ExclusiveStartKey: startKey, ConsistentRead: true }),
    );
    items.push(...(page.Items ?? []).map(plainItem));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items.sort((a, b) => `${a.PK}|${a.SK}`.localeCompare(`${b.PK}|${b.SK}`));
};

/** What a probe sees of one DynamoDB request: its command's name and input; `send` passes it on. */
export type RequestProbe = (
  command: string,
  input: Record<string, unknown>,
  send: () => Promise<unknown>,
) => Promise<unknown>;

/** Runs `call` with every request of the service's table client going through `probe`, before the SDK's retries. */
export const probingRequests = async <T>(service: LocalService, probe: RequestProbe, call: () => Promise<T>) => {
  service.requestTaps.add(
    (next, context) => async (args) =>
      (await probe(String(context.commandName), args.input as never, () => next(args))) as Awaited<
        ReturnType<typeof next>
      >,
    { step: 'initialize', name: 'requestProbe' },
  );
  try {
    return await call();
  } finally {
    service.requestTaps.remove('requestProbe');
  }
};
