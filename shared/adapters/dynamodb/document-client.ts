import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, NumberValue } from '@aws-sdk/lib-dynamodb';

export interface ClientOptions {
  /** DynamoDB Local's URL; absent in AWS. */
  endpoint?: string;
  region?: string;
}

export const createDynamoDbClient = ({ endpoint, region }: ClientOptions = {}): DynamoDBClient =>
  new DynamoDBClient({
    region: region ?? process.env.AWS_REGION ?? 'us-east-1',
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
