import type { APIGatewayProxyEvent } from 'aws-lambda';

export type AuthenticationMethod = 'apiKey' | 'hash' | 'session';

/** Who is calling, as the authorizer (or a family's body-hash check) resolved it. */
export interface Principal {
  userId: number;
  username: string;
  role: string;
  method: AuthenticationMethod;
  /** The user's own metering key, for the authorizer's usage identifier; never put in the request context. */
  usageKey?: string;
}

/** API Gateway authorizer context values must be strings, numbers or booleans. */
export const toAuthorizerContext = (principal: Principal): Record<string, string | number | boolean> => ({
  authenticated: true,
  userId: principal.userId,
  username: principal.username,
  role: principal.role,
  method: principal.method,
});

/** The principal the authorizer put in the request context, if it authenticated the caller. */
export const principalFromEvent = (event: APIGatewayProxyEvent): Principal | undefined => {
  const context = event.requestContext.authorizer as Record<string, unknown> | null | undefined;
  // API Gateway hands context values to the integration as strings
  if (!context || String(context.authenticated) !== 'true') return undefined;
  return {
    userId: Number(context.userId),
    username: String(context.username),
    role: String(context.role),
    method: String(context.method) as AuthenticationMethod,
  };
};
