import type { Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type { Construct } from 'constructs';

export interface MeteringKeys {
  defaultKey: apigateway.ApiKey;
  anonymousKey: apigateway.ApiKey;
}

/**
 * A metering identity's value. It is no credential: with apiKeySource AUTHORIZER only the authorizer can name it,
 * so it can sit in the authorizer's environment and no cold start asks API Gateway for it. Named after the service
 * stack (`DeliveryLimits-<stage>`), which holds the authorizer, whichever stack creates the key.
 */
export const meteringKeyValue = (stack: Stack, role: 'default' | 'anonymous'): string =>
  `${stack.stackName}-${role}-usage-${stack.account}-${stack.region}`;

export const buildMeteringKeys = (scope: Construct, service: Stack): MeteringKeys => ({
  defaultKey: new apigateway.ApiKey(scope, 'DefaultUsageKey', {
    description: 'Meters hash and session callers without a metering key of their own',
    value: meteringKeyValue(service, 'default'),
  }),
  anonymousKey: new apigateway.ApiKey(scope, 'AnonymousUsageKey', {
    description: 'Meters form requests that show no credential to the authorizer',
    value: meteringKeyValue(service, 'anonymous'),
  }),
});
