import type { Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as logs from 'aws-cdk-lib/aws-logs';
import { PREFLIGHT_HEADERS } from '../../shared/api/browser-headers';
import { retainedInProduction } from './retention';
import type { DeliveryLimitsStackProps } from './stack-props';

export type RestApiSettings = Pick<
  DeliveryLimitsStackProps,
  'stageName' | 'production' | 'logRetention' | 'tracing' | 'corsOrigins' | 'stageThrottle'
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

/** The REST API and its stage: access logs, metrics, error-level execution logs, CORS when origins are given. */
export const buildRestApi = (stack: Stack, settings: RestApiSettings): apigateway.RestApi => {
  const accessLogs = new logs.LogGroup(stack, 'ApiAccessLogs', {
    retention: settings.logRetention,
    removalPolicy: retainedInProduction(settings.production),
  });
  return new apigateway.RestApi(stack, 'Api', {
    restApiName: `delivery-limits-${settings.stageName}`,
    apiKeySourceType: apigateway.ApiKeySourceType.AUTHORIZER,
    cloudWatchRole: true,
    deployOptions: {
      stageName: settings.stageName,
      accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
      accessLogFormat: ACCESS_LOG_FORMAT,
      metricsEnabled: true,
      loggingLevel: apigateway.MethodLoggingLevel.ERROR,
      // never log request or response bodies: they carry passwords and tokens
      dataTraceEnabled: false,
      tracingEnabled: settings.tracing,
      throttlingRateLimit: settings.stageThrottle.rateLimit,
      throttlingBurstLimit: settings.stageThrottle.burstLimit,
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
};
