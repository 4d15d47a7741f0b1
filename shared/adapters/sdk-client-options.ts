import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { withFastConfig } from './fast-client-config';

/**
 * The SDK writes no log lines here, as by default; but given a logger with `info` (its default has one that does
 * nothing), its logging middleware builds a filtered copy of every request and answer to hand it, a walk of every
 * item read. Without `info` and `error` the copies are never made. Its `debug` and `warn` go nowhere.
 */
export const SDK_LOGGER = {
  debug: () => undefined,
  warn: () => undefined,
} as unknown as DynamoDBClientConfig['logger'];

/**
 * What every AWS client a Lambda function builds shares: no logger copies, and the SDK's middleware stack resolved
 * once per kind of request rather than on every request (some 0.1 ms each). Middleware added after a kind's first
 * request is then ignored for it; nothing in a function adds any.
 */
export const LAMBDA_CLIENT_OPTIONS = { logger: SDK_LOGGER, cacheMiddleware: true };

/** A client of the given kind as a Lambda function builds one: `LAMBDA_CLIENT_OPTIONS`, its configuration laid out fast. */
export const lambdaClient = <Client extends { config: object }>(
  Kind: new (options: typeof LAMBDA_CLIENT_OPTIONS) => Client,
): Client => withFastConfig(new Kind(LAMBDA_CLIENT_OPTIONS));
