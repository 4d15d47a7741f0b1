import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authenticate } from '../../shared/auth/authenticate';
import { visibleCredentials } from '../../shared/auth/credentials';
import { toAuthorizerContext } from '../../shared/auth/principal';
import type { RefusalContext } from '../../shared/api/authorizer-refusal';
import { ApiError } from '../../shared/http/api-error';
import { emitMetrics } from '../../shared/observability/metrics';
import { headerValue } from '../../shared/http/parameters';
import type { Ports } from '../../shared/runtime/dependencies';

const FORM = /^application\/x-www-form-urlencoded/i;

const policy = (
  event: APIGatewayRequestAuthorizerEvent,
  effect: 'Allow' | 'Deny',
): APIGatewayAuthorizerResult['policyDocument'] => ({
  Version: '2012-10-17',
  Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: event.methodArn }],
});

const allow = (
  event: APIGatewayRequestAuthorizerEvent,
  principalId: string,
  context: Record<string, string | number | boolean>,
  usageIdentifierKey: string | undefined,
): APIGatewayAuthorizerResult => ({
  principalId,
  policyDocument: policy(event, 'Allow'),
  context,
  ...(usageIdentifierKey ? { usageIdentifierKey } : {}),
});

/** A refused credential: the stack's ACCESS_DENIED gateway response answers 401 with this code and message. */
const deny = (event: APIGatewayRequestAuthorizerEvent, error: ApiError): APIGatewayAuthorizerResult => {
  const context: RefusalContext = { code: error.code ?? 'UNAUTHENTICATED', message: error.message };
  return { principalId: 'refused', policyDocument: policy(event, 'Deny'), context: { ...context } };
};

/** The usage-plan keys the authorizer meters by, besides a caller's own. */
export interface UsageKeys {
  /** Hash and session callers without a metering key of their own. */
  fallback: () => Promise<string | undefined>;
  /** Form requests that show no credential: a plan of their own, so strangers cannot spend partners' quota. */
  anonymous: () => Promise<string | undefined>;
}

const NO_KEYS: UsageKeys = { fallback: async () => undefined, anonymous: async () => undefined };

/**
 * The REQUEST authorizer: X-Api-Key, then hash parameters in the query, then the session cookie. API Gateway
 * never shows an authorizer the body, so a form request without a visible credential is let through
 * unauthenticated, metered on the anonymous plan; its family handler checks the hash parameters of the body, or
 * answers 401. Every authenticated caller is metered under its own usage identity: its API key, or the metering
 * key its profile holds. Throwing "Unauthorized" (no credential at all) and a Deny (a refused credential, its reason
 * in the context) both make API Gateway answer 401 (`shared/api/authorizer-refusal.ts`).
 */
export const createHandler =
  (dependencies: Ports<'store' | 'clock'>, usageKeys: UsageKeys = NO_KEYS) =>
  async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const credentials = visibleCredentials(event.headers, event.queryStringParameters);
    if (!credentials) {
      if (FORM.test(headerValue(event.headers, 'content-type') ?? ''))
        return allow(event, 'anonymous', { authenticated: false }, await usageKeys.anonymous());
      throw new Error('Unauthorized');
    }
    try {
      const principal = await authenticate(dependencies, credentials);
      const usageKey =
        credentials.kind === 'apiKey' ? credentials.key : (principal.usageKey ?? (await usageKeys.fallback()));
      return allow(event, String(principal.userId), toAuthorizerContext(principal), usageKey);
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 401) return deny(event, error);
      // a refusal is not an outage; this is (a throttled table, a bug): its own metric, which the stack alarms on
      emitMetrics({ AuthorizerFailures: 1 }, new Date());
      throw error;
    }
  };
