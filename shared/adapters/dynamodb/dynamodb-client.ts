import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { withFastConfig } from '../fast-client-config';
import { SDK_LOGGER } from '../sdk-client-options';

export interface ClientOptions {
  /** DynamoDB Local's URL; absent in AWS. */
  endpoint?: string;
  region?: string;
  /**
   * The access key given to DynamoDB Local (`local` by default). Started without `-sharedDb`, DynamoDB Local keeps
   * a database for each key: the tests give each file's service one of its own.
   */
  accessKeyId?: string;
  /**
   * Resolve the SDK's middleware stack once per kind of request rather than on every request (some 0.1 ms each).
   * Middleware added after a kind's first request is then ignored for it: a Lambda function adds none, and the
   * local service's clients take what tests add later through their `requestTaps` (`infra/local/request-taps.ts`).
   */
  cacheMiddleware?: boolean;
  /** How requests are authenticated, when not by the SDK's SigV4 signature (the local service's clients). */
  httpAuthSchemes?: DynamoDBClientConfig['httpAuthSchemes'];
}

/** The region a client names: the one given, else the environment's (`AWS_REGION`, which Lambda sets), else us-east-1. */
export const clientRegion = (region?: string): string => region ?? process.env.AWS_REGION ?? 'us-east-1';

/**
 * The low-level client: the table store converts items itself (`attribute-values.ts`), since the SDK's document
 * client costs some 0.1 ms a request in middleware and refuses the middleware cache.
 */
export const createDynamoDbClient = ({
  endpoint,
  region,
  accessKeyId = 'local',
  cacheMiddleware = false,
  httpAuthSchemes,
}: ClientOptions = {}): DynamoDBClient =>
  withFastConfig(
    new DynamoDBClient({
      region: clientRegion(region),
      logger: SDK_LOGGER,
      cacheMiddleware,
      ...(endpoint ? { endpoint, credentials: { accessKeyId, secretAccessKey: 'local' } } : {}),
      ...(httpAuthSchemes ? { httpAuthSchemes } : {}),
    }),
  );
