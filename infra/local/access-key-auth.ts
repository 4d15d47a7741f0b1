import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';

/**
 * How the local service's AWS clients authenticate to DynamoDB Local unless asked to sign: by naming their access
 * key and region in the `Authorization` header, without a SigV4 signature. DynamoDB Local checks no signature; it
 * reads the access key and the region, and started without `-sharedDb` keeps a database for each pair (every test
 * file's service has a key of its own). The clients' secret is a fake one (`local`), so the signature the SDK
 * would compute proves nothing to anyone; computing it took some 0.3 ms of processor time a request on a 2-core
 * machine, a fifth of the SDK's own work on a request (CONTRIBUTING.md, "Test speed").
 */
export const ACCESS_KEY_ONLY: Pick<DynamoDBClientConfig, 'httpAuthSchemes'> = {
  httpAuthSchemes: [
    {
      schemeId: 'aws.auth#sigv4',
      identityProvider: (config) => config.getIdentityProvider('aws.auth#sigv4'),
      signer: {
        sign: async (request, identity, { region }) => {
          const { accessKeyId } = identity as { accessKeyId: string };
          const scope = `${accessKeyId}/19700101/${String(region)}/dynamodb/aws4_request`;
          request.headers.authorization = `AWS4-HMAC-SHA256 Credential=${scope}, SignedHeaders=host, Signature=none`;
          return request;
        },
      },
    },
  ],
};
