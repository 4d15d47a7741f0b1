import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { clientRegion, createDynamoDbClient } from '../../shared/adapters/dynamodb/dynamodb-client';
import { withFastConfig } from '../../shared/adapters/fast-client-config';
import { SDK_LOGGER } from '../../shared/adapters/sdk-client-options';
import { ACCESS_KEY_ONLY } from './access-key-auth';
import { recordTableRequests } from './aws-request-hooks';
import { RequestTaps } from './request-taps';
import { WriteFaults } from './write-faults';

/**
 * The local service's clients of DynamoDB Local: the functions' table client, the webhook dispatcher's (a function
 * of its own, as on AWS) and the table stream's reader. Each resolves its middleware once per kind of request, as
 * in Lambda: the request log and the fault injection are in the table client's stack before its first request, and
 * what tests add later goes through `requestTaps`. Unless `signRequests`, they name their access key without
 * signing (`ACCESS_KEY_ONLY`).
 */
export const serviceClients = ({
  endpoint,
  accessKeyId = 'local',
  signRequests = false,
}: {
  endpoint: string;
  accessKeyId?: string;
  signRequests?: boolean;
}) => {
  const auth = signRequests ? {} : ACCESS_KEY_ONLY;
  // DynamoDB Local keeps a database for each access key and region: every client names the same region
  const region = clientRegion();
  const options = { endpoint, region, accessKeyId, cacheMiddleware: true, ...auth };
  const client = createDynamoDbClient(options);
  const dispatcherClient = createDynamoDbClient(options);
  for (const each of [client, dispatcherClient]) recordTableRequests(each);
  // without SDK_LOGGER, the SDK's logging middleware made a filtered copy of every page of records, both images
  const streamClient = withFastConfig(
    new DynamoDBStreamsClient({
      endpoint,
      region,
      credentials: { accessKeyId, secretAccessKey: 'local' },
      logger: SDK_LOGGER,
      cacheMiddleware: true,
      ...auth,
    }),
  );
  return {
    client,
    dispatcherClient,
    streamClient,
    faults: new WriteFaults(client),
    requestTaps: new RequestTaps(client),
    destroy(): void {
      for (const each of [client, dispatcherClient, streamClient]) each.destroy();
    },
  };
};
