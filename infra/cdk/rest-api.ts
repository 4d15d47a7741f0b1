import { RemovalPolicy, Size, Validations, type Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as logs from 'aws-cdk-lib/aws-logs';
import { PREFLIGHT_HEADERS } from '../../shared/api/browser-headers';
import { COMPRESSED_ABOVE_BYTES, REFERENCE_EDGE, referenceMethodOptions } from './reference-docs';
import { retainedInProduction } from './retention';
import type { DeliveryLimitsStackProps } from './stack-props';

export type RestApiSettings = Pick<
  DeliveryLimitsStackProps,
  'stageName' | 'production' | 'logRetention' | 'tracing' | 'corsOrigins' | 'stageThrottle' | 'apiGatewayAccountRole'
>;

/** One JSON line per request: no header, query or body, which may carry credentials. */
const ACCESS_LOG_FORMAT = apigateway.AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    requestTime: '$context.requestTime',
    httpMethod: '$context.httpMethod',
    resourcePath: '$context.resourcePath',
    status: '$context.status',
    responseLength: '$context.responseLength',
    integrationLatency: '$context.integrationLatency',
    principalId: '$context.authorizer.principalId',
    authorizerError: '$context.authorizer.error',
    authorizerStatus: '$context.authorizer.status',
    apiKeyId: '$context.identity.apiKeyId',
    sourceIp: '$context.identity.sourceIp',
    userAgent: '$context.identity.userAgent',
  }),
);

/** What every method of the stage logs: metrics, errors, and never a request or response body (they carry passwords). */
const METHOD_LOGGING = {
  metricsEnabled: true,
  loggingLevel: apigateway.MethodLoggingLevel.ERROR,
  dataTraceEnabled: false,
} satisfies apigateway.MethodDeploymentOptions;

/** cdk-nag's findings on the API that are decisions, each on the resource it concerns, with its reason. */
const acknowledgeFindings = (api: apigateway.RestApi): void => {
  Validations.of(api.node.defaultChild!).acknowledge({
    id: 'AwsSolutions-APIG2',
    reason:
      'Requests are validated by the handlers, which answer the JSON envelope the spec requires; API Gateway models would answer in another shape.',
  });
  const cloudWatchRole = api.node.tryFindChild('CloudWatchRole');
  if (cloudWatchRole)
    Validations.of(cloudWatchRole).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        "API Gateway's execution logging needs the account-level CloudWatch role, which AWS documents with this managed policy.",
    });
};

/**
 * The REST API and its stage: access logs, metrics, error-level execution logs, CORS when origins are given;
 * answers compressed, and the reference's methods throttled on their own and, in production, cached.
 */
export const buildRestApi = (stack: Stack, settings: RestApiSettings): apigateway.RestApi => {
  const accessLogs = new logs.LogGroup(stack, 'ApiAccessLogs', {
    retention: settings.logRetention,
    removalPolicy: retainedInProduction(settings.production),
  });
  const api = new apigateway.RestApi(stack, 'Api', {
    restApiName: `delivery-limits-${settings.stageName}`,
    apiKeySourceType: apigateway.ApiKeySourceType.AUTHORIZER,
    // the account's one setting: kept when the stack goes, so that the account's other stages go on logging
    cloudWatchRole: settings.apiGatewayAccountRole,
    ...(settings.apiGatewayAccountRole ? { cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN } : {}),
    minCompressionSize: Size.bytes(COMPRESSED_ABOVE_BYTES),
    deployOptions: {
      stageName: settings.stageName,
      accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
      accessLogFormat: ACCESS_LOG_FORMAT,
      ...METHOD_LOGGING,
      tracingEnabled: settings.tracing,
      throttlingRateLimit: settings.stageThrottle.rateLimit,
      throttlingBurstLimit: settings.stageThrottle.burstLimit,
      // no method but the public reference's is cached: the partners' answers differ by caller
      cachingEnabled: false,
      ...(settings.production ? { cacheClusterEnabled: true, cacheClusterSize: REFERENCE_EDGE.cacheClusterSize } : {}),
      // a method's own settings replace the stage's: each logs as every other method does
      methodOptions: Object.fromEntries(
        Object.entries(referenceMethodOptions(settings.production)).map(([method, options]) => [
          method,
          { ...METHOD_LOGGING, ...options },
        ]),
      ),
    },
    ...(settings.corsOrigins?.length
      ? {
          defaultCorsPreflightOptions: {
            allowOrigins: settings.corsOrigins,
            allowHeaders: PREFLIGHT_HEADERS.split(','),
            allowCredentials: true,
          },
        }
      : {}),
  });
  // API Gateway would create the stage's execution log group itself, outside the stack and kept forever
  const executionLogs = new logs.LogGroup(stack, 'ApiExecutionLogs', {
    logGroupName: `API-Gateway-Execution-Logs_${api.restApiId}/${settings.stageName}`,
    retention: settings.logRetention,
    removalPolicy: retainedInProduction(settings.production),
  });
  api.deploymentStage.node.addDependency(executionLogs);
  acknowledgeFindings(api);
  return api;
};
