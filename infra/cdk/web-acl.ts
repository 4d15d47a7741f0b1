import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { SESSION_COOKIE } from '../../shared/api/session-cookie';

/** AWS WAF counts a rate-based rule over this window (seconds); the limit is per address and window. */
export const WAF_WINDOW_SECONDS = 300;

const TEXT = [{ priority: 0, type: 'NONE' }];
const present = (fieldToMatch: wafv2.CfnWebACL.FieldToMatchProperty): wafv2.CfnWebACL.StatementProperty => ({
  sizeConstraintStatement: { fieldToMatch, comparisonOperator: 'GT', size: 0, textTransformations: TEXT },
});

/**
 * A request showing the gateway no credential: no X-Api-Key, no `hash` in the query, no session cookie. Strangers'
 * form posts and partners signing in the form body look alike here; the family handler tells them apart and
 * meters each partner on its own quota.
 */
const credentialLess: wafv2.CfnWebACL.StatementProperty = {
  notStatement: {
    statement: {
      orStatement: {
        statements: [
          present({ singleHeader: { Name: 'x-api-key' } }),
          present({ singleQueryArgument: { Name: 'hash' } }),
          {
            byteMatchStatement: {
              fieldToMatch: { singleHeader: { Name: 'cookie' } },
              positionalConstraint: 'CONTAINS',
              searchString: `${SESSION_COOKIE}=`,
              textTransformations: TEXT,
            },
          },
        ],
      },
    },
  },
};

const RATE_LIMITED = {
  block: {
    customResponse: {
      responseCode: 429,
      customResponseBodyKey: 'rateLimited',
      responseHeaders: [{ name: 'Retry-After', value: '60' }],
    },
  },
};

export interface PerAddressLimits {
  /** Credential-less requests one address may send in five minutes: a form-body partner's full rate. */
  credentialLessPerIpLimit: number;
  /** Requests of any kind one address may send in five minutes: invented API keys are held here too. */
  requestsPerIpLimit: number;
}

/**
 * The stage's web ACL, two rate-based rules per source address: every request under `requestsPerIpLimit` (so
 * junk keys cost nothing past it), and credential-less ones under the lower `credentialLessPerIpLimit` (so one
 * stranger cannot spend the anonymous plan that form-body partners pass through). Over either, WAF answers 429.
 */
export const protectStage = (
  scope: Construct,
  api: apigateway.RestApi,
  limits: PerAddressLimits & { metricPrefix: string },
): wafv2.CfnWebACL => {
  const metric = (name: string) => ({
    cloudWatchMetricsEnabled: true,
    metricName: `${limits.metricPrefix}-${name}`,
    sampledRequestsEnabled: true,
  });
  const perAddress = (limit: number, scopeDownStatement?: wafv2.CfnWebACL.StatementProperty) => ({
    rateBasedStatement: {
      aggregateKeyType: 'IP',
      evaluationWindowSec: WAF_WINDOW_SECONDS,
      limit,
      ...(scopeDownStatement ? { scopeDownStatement } : {}),
    },
  });
  const acl = new wafv2.CfnWebACL(scope, 'WebAcl', {
    scope: 'REGIONAL',
    defaultAction: { allow: {} },
    visibilityConfig: metric('web-acl'),
    customResponseBodies: {
      rateLimited: {
        contentType: 'APPLICATION_JSON',
        content: JSON.stringify({
          success: false,
          code: 'RATE_LIMITED',
          message: 'Too many requests from this address; retry after Retry-After seconds',
        }),
      },
    },
    rules: [
      {
        name: 'CredentialLessPerSourceIp',
        priority: 0,
        statement: perAddress(limits.credentialLessPerIpLimit, credentialLess),
        action: RATE_LIMITED,
        visibilityConfig: metric('credential-less-per-ip'),
      },
      {
        name: 'EveryRequestPerSourceIp',
        priority: 1,
        statement: perAddress(limits.requestsPerIpLimit),
        action: RATE_LIMITED,
        visibilityConfig: metric('every-request-per-ip'),
      },
    ],
  });
  new wafv2.CfnWebACLAssociation(scope, 'WebAclAssociation', {
    resourceArn: api.deploymentStage.stageArn,
    webAclArn: acl.attrArn,
  });
  return acl;
};
