import type { Stack } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
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

/**
 * The stage's web ACL: credential-less requests from one source address beyond `limitPerWindow` in five minutes
 * are answered 429 by WAF until the address slows down, so one stranger cannot spend the anonymous plan that
 * form-body partners pass through.
 */
export const protectStage = (stack: Stack, api: apigateway.RestApi, limitPerWindow: number): wafv2.CfnWebACL => {
  const metric = (name: string) => ({
    cloudWatchMetricsEnabled: true,
    metricName: `${stack.stackName}-${name}`,
    sampledRequestsEnabled: true,
  });
  const acl = new wafv2.CfnWebACL(stack, 'WebAcl', {
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
        statement: {
          rateBasedStatement: {
            aggregateKeyType: 'IP',
            evaluationWindowSec: WAF_WINDOW_SECONDS,
            limit: limitPerWindow,
            scopeDownStatement: credentialLess,
          },
        },
        action: {
          block: {
            customResponse: {
              responseCode: 429,
              customResponseBodyKey: 'rateLimited',
              responseHeaders: [{ name: 'Retry-After', value: '60' }],
            },
          },
        },
        visibilityConfig: metric('credential-less-per-ip'),
      },
    ],
  });
  new wafv2.CfnWebACLAssociation(stack, 'WebAclAssociation', {
    resourceArn: api.deploymentStage.stageArn,
    webAclArn: acl.attrArn,
  });
  return acl;
};
