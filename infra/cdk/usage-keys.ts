import type { Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';

export interface MeteringKeys {
  defaultKey: apigateway.ApiKey;
  anonymousKey: apigateway.ApiKey;
}

/**
 * A metering identity's value. It is no credential: with apiKeySource AUTHORIZER only the authorizer can name it,
 * so it can sit in the authorizer's environment and no cold start asks API Gateway for it.
 */
export const meteringKeyValue = (stack: Stack, role: 'default' | 'anonymous'): string =>
  `${stack.stackName}-${role}-usage-${stack.account}-${stack.region}`;

export const buildMeteringKeys = (stack: Stack): MeteringKeys => ({
  defaultKey: new apigateway.ApiKey(stack, 'DefaultUsageKey', {
    description: 'Meters hash and session callers without a metering key of their own',
    value: meteringKeyValue(stack, 'default'),
  }),
  anonymousKey: new apigateway.ApiKey(stack, 'AnonymousUsageKey', {
    description: 'Meters form requests that show no credential to the authorizer',
    value: meteringKeyValue(stack, 'anonymous'),
  }),
});
