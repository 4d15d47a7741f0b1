import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';

export interface ClientOptions {
  /** DynamoDB Local's URL; absent in AWS. */
  endpoint?: string;
  region?: string;
  /**
   * Resolve the SDK's middleware stack once per kind of request rather than on every request (some 0.1 ms each).
   * Middleware added after a kind's first request is then ignored for it: a Lambda function adds none, but the
   * local server's fault injection, the tests' probes and the bench's recorder do.
   */
  cacheMiddleware?: boolean;
}

/**
 * The SDK writes no log lines here, as by default; but given a logger with `info` (its default has one that does
 * nothing), its logging middleware builds a filtered copy of every request and answer to hand it, a walk of every
 * item read. Without `info` and `error` the copies are never made. Its `debug` and `warn` go nowhere.
 */
const SDK_LOGGER = { debug: () => undefined, warn: () => undefined } as unknown as DynamoDBClientConfig['logger'];

/**
 * The low-level client: the table store converts items itself (`attribute-values.ts`), since the SDK's document
 * client costs some 0.1 ms a request in middleware and refuses the middleware cache.
 */
export const createDynamoDbClient = ({
  endpoint,
  region,
  cacheMiddleware = false,
}: ClientOptions = {}): DynamoDBClient =>
  new DynamoDBClient({
    region: region ?? process.env.AWS_REGION ?? 'us-east-1',
    logger: SDK_LOGGER,
    cacheMiddleware,
    ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
