import { NestedStack, type Stack } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { addRoutes } from './api-routes';
import type { ServiceFunctions } from './functions';
import { addGatewayAnswers } from './gateway-responses';
import { addReferenceRoutes } from './reference-docs';
import { buildRestApi, type RestApiSettings } from './rest-api';
import { buildMeteringKeys } from './usage-keys';
import { addUsagePlans, type UsagePlanSettings } from './usage-plans';
import { protectStage, type PerAddressLimits } from './web-acl';

export interface GatewayProps extends RestApiSettings, UsagePlanSettings, PerAddressLimits {
  functions: ServiceFunctions;
  reference: lambda.IFunction;
}

/**
 * The API Gateway of a stage, in a template of its own nested in the service stack: a resource and a method per
 * route (HEAD beside every GET, OPTIONS beside every resource with CORS) are most of a stage's resources, and the
 * service stack's template keeps room for the functions and the alarms. One deploy still updates both.
 */
export class GatewayStack extends NestedStack {
  readonly api: apigateway.RestApi;
  /** The plan partners' API keys are registered in. */
  readonly partnerPlan: apigateway.UsagePlan;

  constructor(service: Stack, id: string, props: GatewayProps) {
    super(service, id);
    this.api = buildRestApi(this, props);
    addRoutes(this, this.api, props.functions);
    addReferenceRoutes(this.api, props.reference);
    addGatewayAnswers(this.api, props.corsOrigins);
    this.partnerPlan = addUsagePlans(this.api, props, buildMeteringKeys(this, service));
    protectStage(this, this.api, { ...props, metricPrefix: service.stackName });
  }
}
