import { Duration, Validations, type Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { gatewayResourcePath } from '../../shared/api/path-template';
import { methodsOf, ROUTES, type Family, type Route } from '../../shared/api/route-table';
import type { ServiceFunctions } from './functions';

const operationNameOf = (route: Route, httpMethod: string): string =>
  `${route.operation}${route.level ? `.${route.level}` : ''}${httpMethod === 'HEAD' ? '.head' : ''}`;

/**
 * One resource and method per route-table entry, to its family's function; limit routes behind the REQUEST
 * authorizer and an API key. HEAD is answered wherever GET is, by the same function (API Gateway sends no body in a
 * HEAD answer).
 */
export const addRoutes = (stack: Stack, api: apigateway.RestApi, functions: ServiceFunctions): void => {
  const authorizer = new apigateway.RequestAuthorizer(stack, 'Authorizer', {
    handler: functions.authorizer,
    // any of three credentials may come, so there is no identity source to cache on
    identitySources: [],
    resultsCacheTtl: Duration.seconds(0),
  });
  const integrations = new Map<Family, apigateway.LambdaIntegration>();
  const integration = (family: Family) => {
    if (!integrations.has(family))
      // one invoke permission per function for the whole API: a permission per method (GET and HEAD on every
      // resource) would outgrow Lambda's 20 KB resource policy; the family's router refuses paths not its own
      integrations.set(family, new apigateway.LambdaIntegration(functions[family], { scopePermissionToMethod: false }));
    return integrations.get(family)!;
  };
  for (const route of ROUTES)
    for (const httpMethod of methodsOf(route)) {
      const method = api.root
        .resourceForPath(gatewayResourcePath(route.path))
        .addMethod(httpMethod, integration(route.family), {
          ...(route.authenticated
            ? { authorizer, authorizationType: apigateway.AuthorizationType.CUSTOM, apiKeyRequired: true }
            : { authorizationType: apigateway.AuthorizationType.NONE }),
          operationName: operationNameOf(route, httpMethod),
        });
      if (route.authenticated)
        Validations.of(method).acknowledge({
          id: 'AwsSolutions-COG4',
          reason:
            'Callers authenticate with API keys, Epom hash parameters or sessions through the Lambda REQUEST authorizer, not Cognito.',
        });
      else
        for (const id of ['AwsSolutions-APIG4', 'AwsSolutions-COG4'])
          Validations.of(method).acknowledge({
            id,
            reason: 'Obtaining a token, logging in and resetting a password come before any credential.',
          });
    }
};
