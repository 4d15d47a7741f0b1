import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';

/** The `Authorization` header that names an access key and a region to DynamoDB Local, with no signature. */
export const accessKeyAuthorization = (accessKeyId: string, region: string): string =>
  `AWS4-HMAC-SHA256 Credential=${accessKeyId}/19700101/${region}/dynamodb/aws4_request, SignedHeaders=host, Signature=none`;

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
          request.headers.authorization = accessKeyAuthorization(accessKeyId, String(region));
          return request;
        },
      },
    },
  ],
};
