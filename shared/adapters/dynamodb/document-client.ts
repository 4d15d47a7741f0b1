import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, NumberValue } from '@aws-sdk/lib-dynamodb';

export interface ClientOptions {
  /** DynamoDB Local's URL; absent in AWS. */
  endpoint?: string;
  region?: string;
}

/**
 * The SDK writes no log lines here, as by default; but given a logger with `info` (its default has one that does
 * nothing), its logging middleware builds a filtered copy of every request and answer to hand it, a walk of every
 * item read. Without `info` and `error` the copies are never made. Its `debug` and `warn` go nowhere.
 */
const SDK_LOGGER = { debug: () => undefined, warn: () => undefined } as unknown as DynamoDBClientConfig['logger'];

export const createDynamoDbClient = ({ endpoint, region }: ClientOptions = {}): DynamoDBClient =>
  new DynamoDBClient({
    region: region ?? process.env.AWS_REGION ?? 'us-east-1',
    logger: SDK_LOGGER,
    ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });

/**
 * How stored numbers are read: as a JavaScript number when it holds them exactly (ids, caps, versions, every
 * counter below 2^53), otherwise as the exact decimal text in a NumberValue, so that no stored value is rounded and
 * none makes a read fail.
 */
export const exactNumbers = (text: string): number | NumberValue => {
  const number = Number(text);
  return Number.isFinite(number) && String(number) === text ? number : NumberValue.from(text);
};

export const createDocumentClient = (client: DynamoDBClient): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    unmarshallOptions: { wrapNumbers: exactNumbers },
  });
