import { resolve } from 'node:path';
import { Duration, Validations, type Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { REFERENCE_MAX_AGE_SECONDS, REFERENCE_PATHS } from '../../shared/api/openapi/published-reference';
import { bundlingOf, executionRole, LAMBDA_RUNTIME } from './functions';
import { retainedInProduction } from './retention';

export interface ReferenceOptions {
  production: boolean;
  logRetention: logs.RetentionDays;
  sourceMaps: boolean;
}

/**
 * How the gateway serves the reference, which anyone may read without a credential: no crowd of readers may take
 * what partners pay for (docs/operations.md, "The API reference at the edge").
 */
export const REFERENCE_EDGE = {
  /** Each of its four methods (GET and HEAD of the page and of the document), apart from the stage's throttle. */
  throttle: { rateLimit: 10, burstLimit: 20 },
  /** The gateway's cache keeps an answer as long as the function's `Cache-Control` lets any cache keep it. */
  cacheTtlSeconds: REFERENCE_MAX_AGE_SECONDS,
  /** The smallest cache API Gateway offers (GB); in production only: it is billed by the hour. */
  cacheClusterSize: '0.5',
  /** A request's host is part of the cache's key: the page names the server it is read on. */
  cacheKey: 'method.request.header.Host',
} as const;

/** Answers above this many bytes leave the gateway compressed when the client accepts it (the whole API's). */
export const COMPRESSED_ABOVE_BYTES = 1024;

/** The stage's settings of each reference method: its throttle, and in production the cache. */
export const referenceMethodOptions = (cached: boolean): Record<string, apigateway.MethodDeploymentOptions> =>
  Object.fromEntries(
    Object.values(REFERENCE_PATHS).flatMap((path) =>
      ['GET', 'HEAD'].map((httpMethod) => [
        `${path}/${httpMethod}`,
        {
          throttlingRateLimit: REFERENCE_EDGE.throttle.rateLimit,
          throttlingBurstLimit: REFERENCE_EDGE.throttle.burstLimit,
          ...(cached
            ? {
                cachingEnabled: true,
                cacheTtl: Duration.seconds(REFERENCE_EDGE.cacheTtlSeconds),
                cacheDataEncrypted: true,
              }
            : {}),
        },
      ]),
    ),
  );

/** The project's root: `cdk synth` runs there, and the bundling hook builds the reference from it. */
const PROJECT_ROOT = resolve('.');

/**
 * The API reference at the API's own origin: `GET /docs` (the Redoc page) and `GET /rest-api/openapi.json`, public,
 * unmetered, answered by one small function bundled with the page and the document (built at synth by
 * `scripts/build-reference.ts`). A static integration (S3) could not write the page's own server into the samples
 * and the page's script hashes; the function does, once per server and container, and answers with a five-minute
 * `Cache-Control`. It reads nothing and may only write its logs.
 */
export const buildReferenceFunction = (stack: Stack, options: ReferenceOptions): lambda.Function => {
  const logGroup = new logs.LogGroup(stack, 'referenceLogs', {
    retention: options.logRetention,
    removalPolicy: retainedInProduction(options.production),
  });
  const role = executionRole(stack, 'reference', logGroup);
  return new nodejs.NodejsFunction(stack, 'referenceFunction', {
    role,
    entry: 'functions/reference/handler.ts',
    handler: 'handler',
    runtime: LAMBDA_RUNTIME,
    architecture: lambda.Architecture.ARM_64,
    memorySize: 256,
    timeout: Duration.seconds(10),
    loggingFormat: lambda.LoggingFormat.JSON,
    logGroup,
    ...(options.sourceMaps ? { environment: { NODE_OPTIONS: '--enable-source-maps' } } : {}),
    depsLockFilePath: 'package-lock.json',
    bundling: {
      ...bundlingOf({ sourceMaps: options.sourceMaps, tracing: false }),
      commandHooks: {
        beforeBundling: () => [],
        beforeInstall: () => [],
        afterBundling: (_input: string, output: string) => [
          `cd "${PROJECT_ROOT}" && node --import tsx scripts/build-reference.ts "${output}"`,
        ],
      },
    },
  });
};

/** GET and HEAD of the page and the document, without a credential, to the reference function. */
export const addReferenceRoutes = (api: apigateway.RestApi, fn: lambda.IFunction): void => {
  const integration = new apigateway.LambdaIntegration(fn, {
    scopePermissionToMethod: false,
    cacheKeyParameters: [REFERENCE_EDGE.cacheKey],
  });
  for (const path of Object.values(REFERENCE_PATHS))
    for (const httpMethod of ['GET', 'HEAD']) {
      const method = api.root.resourceForPath(path).addMethod(httpMethod, integration, {
        authorizationType: apigateway.AuthorizationType.NONE,
        requestParameters: { [REFERENCE_EDGE.cacheKey]: false },
        operationName: `reference${path === REFERENCE_PATHS.page ? 'Page' : 'Document'}${httpMethod === 'HEAD' ? '.head' : ''}`,
      });
      for (const id of ['AwsSolutions-APIG4', 'AwsSolutions-COG4'])
        Validations.of(method).acknowledge({
          id,
          reason: 'The API reference is public, as a partner reads it before holding any credential.',
        });
    }
};
