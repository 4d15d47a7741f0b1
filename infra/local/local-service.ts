import { readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importCatalog, type CatalogCounts, type UserPasswordHasher } from '../../shared/catalog/catalog-import';
import { hashPassword } from '../../shared/domain/auth/crypto';
import type { Dependencies } from '../../shared/runtime/dependencies';
import { DEFAULT_TABLE_NAME } from '../../shared/table/table-definition';
import { TableStore } from '../../shared/adapters/dynamodb/table-store';
import { DynamoDbWebhookStore } from '../../shared/adapters/dynamodb/webhook-store';
import { ControllableClock } from './controllable-clock';
import { DEMO_CATALOG_FILE } from './demo-catalog-file';
import { CatalogRejectedError, PortInUseError } from './start-failures';
import { startDynamoDbLocal } from './dynamodb-local';
import { createFamilyHandlers, createLocalAuthorizer } from './family-handlers';
import { createLocalEndpoints } from './local-endpoints';
import { buildReference, createLocalServer, type GatewayParts } from './local-server';
import { InProcessResetQueue } from './in-process-reset-queue';
import { InMemoryDeadLetters, InMemoryEvents, InMemoryStreamDeadLetters } from './in-memory-sinks';
import { OutboxMailer } from './outbox-mailer';
import { LocalWebhooks } from './local-webhooks';
import { ensureTable } from './table-setup';
import { LocalTableStream } from './table-stream';
import { isNewHistoryEntry } from '../../shared/adapters/dynamodb/history-stream';
import { isNearCapWrite } from '../../shared/adapters/dynamodb/counter-stream';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { STREAM_TRIGGER } from '../../shared/table/stream-trigger';
import { createHandler as createHistoryEventsHandler } from '../../functions/history-events/handler';
import { asFunction } from './aws-request-log';
import type { EventPublisher } from '../../shared/ports/event-publisher';
import type { Clock } from '../../shared/ports/clock';
import { recordedPorts, recordedStreamDeadLetters } from './aws-request-hooks';
import { serviceClients } from './service-clients';
import type { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { RequestTaps } from './request-taps';
import type { WriteFaults } from './write-faults';

/** How often the local stream is read in the background, about as often as Lambda polls a stream. */
const STREAM_POLL_MS = 1000;
/** How often deliveries due by the local clock are attempted in the background (tests ask for them at once). */
const WEBHOOK_POLL_MS = 1000;

export interface LocalServiceOptions {
  port?: number;
  host?: string;
  /** Persist DynamoDB Local's data here; in memory when absent. */
  dataDir?: string;
  /** Catalog file to load; the demo catalog when absent; none when null. */
  catalogFile?: string | null;
  /** Use an already running DynamoDB (tests share one); otherwise DynamoDB Local is started and owned. */
  dynamoEndpoint?: string;
  /** The access key every client of the service gives DynamoDB Local (`ClientOptions.accessKeyId`). */
  dynamoAccessKeyId?: string;
  /**
   * Sign DynamoDB requests as the SDK does in Lambda (the bench, whose figures stand for Lambda's). By default the
   * service's clients only name their access key, which is all DynamoDB Local reads (`access-key-auth.ts`).
   */
  signRequests?: boolean;
  tableName?: string;
  /** Browser origins allowed by CORS, as the stack's `corsOrigins`; none, no CORS. */
  corsOrigins?: readonly string[];
  /** Told each step of the start once the one before is done (`npm start` prints them). */
  progress?: (step: string) => void;
}

export interface LocalService {
  url: string;
  port: number;
  /** The DynamoDB (Local) endpoint the service uses. */
  dynamoEndpoint: string;
  dependencies: Dependencies;
  clock: ControllableClock;
  resetQueue: InProcessResetQueue;
  events: InMemoryEvents;
  deadLetters: InMemoryDeadLetters;
  /** The table stream's dead-letter queue (`GET /_local/dead-letters` lists it with the delivery one). */
  streamDeadLetters: InMemoryStreamDeadLetters;
  faults: WriteFaults;
  /** Middleware added to the table client while the service runs (`RequestTaps`). */
  requestTaps: RequestTaps;
  /** The webhook dispatcher, its queues and its deliveries (`GET /_local/webhook-deliveries`). */
  webhookDispatcher: LocalWebhooks;
  catalogCounts?: CatalogCounts;
  stop(): Promise<void>;
}

const hashesMade = new Map<string, Promise<string>>();

/**
 * The catalog a service loads at its start hashes each user's password once per process: a test run starts a
 * service per file, each loading the same demo users, and scrypt at its production cost took some 0.35 s of
 * processor time a start for the demo catalog's five. A user loaded again gets the hash (salt and key) it got
 * before, as a second import into the same table does; no two users share one.
 */
const hashOncePerProcess: UserPasswordHasher = (username, password) => {
  const key = JSON.stringify([username, password]);
  const made = hashesMade.get(key) ?? hashPassword(password);
  hashesMade.set(key, made);
  made.catch(() => hashesMade.delete(key));
  return made;
};

const loadCatalog = async (store: TableStore, file: string): Promise<CatalogCounts> => {
  let content: unknown;
  try {
    content = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new CatalogRejectedError(file, [{ path: '$', reason: `cannot read JSON: ${(error as Error).message}` }]);
  }
  const result = await importCatalog(store, content, { hashUserPassword: hashOncePerProcess });
  if (!result.ok) throw new CatalogRejectedError(file, result.problems);
  return result.counts;
};

/** The service's ports, each an in-process stand-in for its AWS service, around the table store. */
const inProcessPorts = (store: TableStore, dispatcherClient: DynamoDBClient, options: LocalServiceOptions) => {
  const clock = new ControllableClock();
  const outbox = new OutboxMailer(clock);
  // the local server delivers to receivers on this machine, which seldom have a certificate
  const config = { appBaseUrl: '', loopbackWebhooks: true };
  const resetQueue = new InProcessResetQueue();
  const events = new InMemoryEvents();
  const deadLetters = new InMemoryDeadLetters();
  const streamDeadLetters = new InMemoryStreamDeadLetters();
  const cors = { allowedOrigins: options.corsOrigins ?? [] };
  const webhooks = new DynamoDbWebhookStore(store);
  const ports: Dependencies = { store, clock, mailer: outbox, resetQueue, events, deadLetters, webhooks, config, cors };
  // the functions' view: each port call is noted as the AWS request its adapter sends, when the tests record them
  const dependencies = recordedPorts(ports);
  // the dispatcher is a function of its own, with its own client, as on AWS: a probe of the API's client never sees it
  const dispatcherStore = new TableStore(dispatcherClient, store.tableName);
  const subscriptions = new DynamoDbWebhookStore(dispatcherStore);
  const webhookDispatcher = new LocalWebhooks({ store: dispatcherStore, clock, subscriptions });
  events.rules.push((detailType, published) => webhookDispatcher.publish(detailType, published));
  const sinks = { events, deadLetters, streamDeadLetters };
  return { dependencies, clock, outbox, config, resetQueue, ...sinks, cors, webhookDispatcher };
};

interface StreamPorts {
  clock: Clock;
  events: EventPublisher;
  store: TableStore;
  streamDeadLetters: InMemoryStreamDeadLetters;
}

/** The table's stream, read in the background by the history-events handler as Lambda would, by the same rules. */
const openTableStream = async (client: DynamoDBStreamsClient, streamArn: string, ports: StreamPorts) => {
  const { clock, events, store, streamDeadLetters } = ports;
  const tableStream = await LocalTableStream.open(client, streamArn, {
    consumer: asFunction(
      'history-events',
      createHistoryEventsHandler({ events, store, deadLetters: recordedStreamDeadLetters(streamDeadLetters) }),
    ),
    passes: (record) => isNewHistoryEntry(record) || isNearCapWrite(record),
    settings: STREAM_TRIGGER,
    onFailure: (batch) => streamDeadLetters.discarded(batch),
    nowSeconds: () => clock.now().getTime() / 1000,
  });
  tableStream.poll(STREAM_POLL_MS);
  return tableStream;
};

/** Listens on the port asked for (0: any free one) and answers the port taken. */
const listen = (server: Server, host: string, wanted: number): Promise<number> =>
  new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(host, wanted) : error),
    );
    server.listen(wanted, host, () => resolve((server.address() as AddressInfo).port));
  });

/** The DynamoDB the service uses: the one given, or DynamoDB Local started for it (and said so). */
const startDynamo = async (options: LocalServiceOptions) => {
  const dynamo = options.dynamoEndpoint
    ? { endpoint: options.dynamoEndpoint, stop: async () => undefined }
    : await startDynamoDbLocal({ dataDir: options.dataDir });
  options.progress?.(
    `DynamoDB Local is up: creating the table${options.catalogFile === null ? '' : ' and loading the catalog'}…`,
  );
  return dynamo;
};

/** The whole service on one machine: DynamoDB Local, the table, the catalog and the emulated API Gateway. */
export const startLocalService = async (options: LocalServiceOptions = {}): Promise<LocalService> => {
  const host = options.host ?? '127.0.0.1';
  const dynamo = await startDynamo(options);
  const clients = serviceClients({
    endpoint: dynamo.endpoint,
    accessKeyId: options.dynamoAccessKeyId,
    signRequests: options.signRequests,
  });
  const { client, faults, requestTaps } = clients;
  let tableStream: LocalTableStream | undefined;
  let webhookDispatcher: LocalWebhooks | undefined;
  const cleanUp = async () => {
    await webhookDispatcher?.stop();
    await tableStream?.close();
    clients.destroy();
    await dynamo.stop();
  };
  try {
    const tableName = options.tableName ?? DEFAULT_TABLE_NAME;
    const streamArn = await ensureTable(client, tableName);
    const store = new TableStore(client, tableName);
    const ports = inProcessPorts(store, clients.dispatcherClient, options);
    const { dependencies, clock, resetQueue, events, deadLetters, streamDeadLetters } = ports;
    webhookDispatcher = ports.webhookDispatcher.poll(WEBHOOK_POLL_MS);
    tableStream = await openTableStream(clients.streamClient, streamArn, { ...dependencies, streamDeadLetters });
    const catalogFile = options.catalogFile === undefined ? DEMO_CATALOG_FILE : options.catalogFile;
    const catalogCounts = catalogFile ? await loadCatalog(store, catalogFile) : undefined;
    const gateway: GatewayParts = {
      handlers: createFamilyHandlers(dependencies),
      authorizer: createLocalAuthorizer(dependencies),
      localEndpoints: createLocalEndpoints({ ...ports, faults, tableStream }),
      clock,
      cors: ports.cors,
      browserGuard: { boundHost: host },
    };
    const server = createLocalServer(gateway);
    const port = await listen(server, host, options.port ?? 3000);
    const url = `http://${host}:${port}`;
    ports.config.appBaseUrl = url;
    // the demo catalog however it was named: its samples run as pasted
    const demoCatalog = catalogFile !== null && resolvePath(catalogFile) === DEMO_CATALOG_FILE;
    gateway.reference = buildReference(url, { demoCatalog });
    const stop = async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await cleanUp();
    };
    const service = {
      ...{ dependencies, clock, resetQueue, events, deadLetters, streamDeadLetters },
      ...{ faults, requestTaps, webhookDispatcher, catalogCounts, stop },
    };
    return { url, port, dynamoEndpoint: dynamo.endpoint, ...service };
  } catch (error) {
    await cleanUp();
    throw error;
  }
};
