import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../infra/cdk/app';
import { FUNCTION_ACCESS } from '../../infra/cdk/function-access';
import { DeliveryLimitsStack } from '../../infra/cdk/delivery-limits-stack';
import { gatewayResourcePath } from '../../shared/api/path-template';
import { ROUTES } from '../../shared/api/route-table';
import { TABLE_DEFINITION } from '../../shared/table/table-definition';
import { ANONYMOUS_PLAN, DEFAULT_PLAN, partnerPlan } from '../../shared/domain/metering/partner-quota';

type Resource = { Type: string; Properties: Record<string, unknown> };

/** cdk.json's context (feature flags included), as `cdk synth` gives it to the app. */
const CDK_CONTEXT = (JSON.parse(readFileSync('cdk.json', 'utf8')) as { context: Record<string, unknown> }).context;

/** An app that skips esbuild bundling: the template is what is under test here. */
const unbundledApp = (context: Record<string, unknown> = {}) =>
  new App({ context: { ...CDK_CONTEXT, ...context, 'aws:cdk:bundling-stacks': [] } });

let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  const app = buildApp(unbundledApp());
  const stack = app.node.children.find((child) => child instanceof DeliveryLimitsStack) as DeliveryLimitsStack;
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
}, 60_000);

const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

/** Full path of every API Gateway resource, rebuilt from PathPart and ParentId. */
const resourcePaths = (): Map<string, string> => {
  const paths = new Map<string, string>();
  const resolve = (id: string): string => {
    if (paths.has(id)) return paths.get(id)!;
    const { ParentId, PathPart } = resources[id]!.Properties as {
      ParentId: { Ref?: string; 'Fn::GetAtt'?: string[] };
      PathPart: string;
    };
    const parent = ParentId.Ref ? resolve(ParentId.Ref) : '';
    paths.set(id, `${parent}/${PathPart}`);
    return paths.get(id)!;
  };
  for (const [id] of ofType('AWS::ApiGateway::Resource')) resolve(id);
  return paths;
};

describe('the API', () => {
  it('has one method per route-table entry, with the authorizer and an API key where the route needs them', () => {
    const paths = resourcePaths();
    const methods = ofType('AWS::ApiGateway::Method').map(([, method]) => {
      const properties = method.Properties as {
        HttpMethod: string;
        ResourceId: { Ref: string };
        AuthorizationType: string;
        AuthorizerId?: unknown;
        ApiKeyRequired?: boolean;
      };
      return { key: `${properties.HttpMethod} ${paths.get(properties.ResourceId.Ref)}`, ...properties };
    });
    expect(methods.map((method) => method.key).sort()).toEqual(
      ROUTES.map((route) => `${route.method} ${gatewayResourcePath(route.path)}`).sort(),
    );
    for (const route of ROUTES) {
      const method = methods.find(
        (candidate) => candidate.key === `${route.method} ${gatewayResourcePath(route.path)}`,
      )!;
      if (route.authenticated) {
        expect(method, method.key).toMatchObject({ AuthorizationType: 'CUSTOM', ApiKeyRequired: true });
        expect(method.AuthorizerId, method.key).toBeDefined();
      } else {
        expect(method, method.key).toMatchObject({ AuthorizationType: 'NONE' });
      }
    }
  });

  it('takes usage-plan keys from the authorizer, which has no identity source and no cache', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      AuthorizerResultTtlInSeconds: 0,
      IdentitySource: '',
    });
    // default (hash and session callers without a metering key), partner, and anonymous (credential-less forms)
    template.resourceCountIs('AWS::ApiGateway::UsagePlan', 3);
    template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: Match.anyValue(), BurstLimit: Match.anyValue() },
      Quota: { Limit: Match.anyValue(), Period: 'DAY' },
    });
    const anonymous = ofType('AWS::ApiGateway::UsagePlan').find(([, plan]) =>
      String(plan.Properties.UsagePlanName).endsWith('-anonymous'),
    )!;
    expect(anonymous[1].Properties).toMatchObject({
      Throttle: { RateLimit: 5, BurstLimit: 10 },
      Quota: { Limit: 10000 },
    });
    template.resourceCountIs('AWS::ApiGateway::UsagePlanKey', 2);
    const authorizer = ofType('AWS::Lambda::Function').find(([name]) => name.startsWith('authorizerFunction'))!;
    const environment = (authorizer[1].Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(Object.keys(environment)).toEqual(expect.arrayContaining(['DEFAULT_USAGE_KEY', 'ANONYMOUS_USAGE_KEY']));
    // the metering keys' values are in the template: no cold start asks API Gateway, and no role may
    const policies = JSON.stringify(ofType('AWS::IAM::Policy'));
    expect(policies).not.toContain('apigateway:GET');
  });

  it('makes usage plans with the numbers the family handlers meter body-signed partners with', () => {
    const plan = (suffix: string) => {
      const [, found] = ofType('AWS::ApiGateway::UsagePlan').find(([, candidate]) =>
        String(candidate.Properties.UsagePlanName).endsWith(suffix),
      )!;
      const { Throttle, Quota } = found.Properties as {
        Throttle: { RateLimit: number; BurstLimit: number };
        Quota: { Limit: number };
      };
      return { rateLimit: Throttle.RateLimit, burstLimit: Throttle.BurstLimit, quotaPerDay: Quota.Limit };
    };
    expect(plan('-default')).toEqual(DEFAULT_PLAN);
    expect(plan('-partner')).toEqual(partnerPlan());
    expect(plan('-anonymous')).toEqual(ANONYMOUS_PLAN);
  });

  it('answers gateway errors in the JSON envelope', () => {
    const responses = ofType('AWS::ApiGateway::GatewayResponse').map(
      ([, response]) => response.Properties as { ResponseType: string; ResponseTemplates: Record<string, string> },
    );
    expect(responses.map((response) => response.ResponseType).sort()).toEqual(
      [
        'ACCESS_DENIED',
        'AUTHORIZER_FAILURE',
        'DEFAULT_4XX',
        'DEFAULT_5XX',
        'MISSING_AUTHENTICATION_TOKEN',
        'QUOTA_EXCEEDED',
        'REQUEST_TOO_LARGE',
        'THROTTLED',
        'UNAUTHORIZED',
      ].sort(),
    );
    for (const response of responses)
      expect(JSON.parse(response.ResponseTemplates['application/json']!)).toMatchObject({ success: false });
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'AUTHORIZER_FAILURE',
      StatusCode: '503',
      ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': "'1'" }),
    });
  });

  it('logs access as JSON, with metrics, and never request bodies', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      MethodSettings: [Match.objectLike({ MetricsEnabled: true, DataTraceEnabled: false })],
    });
  });
});

describe('functions', () => {
  it('run Node.js 22 on arm64 with JSON logs', () => {
    const functions = ofType('AWS::Lambda::Function').map(([, fn]) => fn.Properties);
    expect(functions).toHaveLength(Object.keys(FUNCTION_ACCESS).length);
    for (const fn of functions)
      expect(fn).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        LoggingConfig: { LogFormat: 'JSON' },
      });
  });

  it('may send exactly the table actions their code sends, on the keys it uses', () => {
    // the stream trigger's own grant, on the stream: history-events reads no table item
    const STREAM_READ = [
      'dynamodb:ListStreams',
      'dynamodb:DescribeStream',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
    ];
    const policies = ofType('AWS::IAM::Policy').map(
      ([, policy]) =>
        policy.Properties as {
          Roles: { Ref: string }[];
          PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown; Condition?: unknown }[] };
        },
    );
    const roleOf = (functionName: string) => {
      const [, fn] = ofType('AWS::Lambda::Function').find(([id]) =>
        id.startsWith(`${functionName.replace(/-/g, '')}Function`),
      )!;
      return (fn.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
    };
    for (const [name, access] of Object.entries(FUNCTION_ACCESS)) {
      const role = roleOf(name);
      const statements = policies
        .filter((policy) => policy.Roles.some((ref) => ref.Ref === role))
        .flatMap((policy) => policy.PolicyDocument.Statement);
      const tableStatements = statements.filter(
        (statement) =>
          [statement.Action].flat().some((action) => action.startsWith('dynamodb:')) && statement.Condition,
      );
      expect(tableStatements, name).toHaveLength(access.tableActions.length > 0 ? 1 : 0);
      if (access.tableActions.length > 0) {
        expect([tableStatements[0]!.Action].flat().sort(), name).toEqual([...access.tableActions].sort());
        expect(tableStatements[0]!.Condition, name).toEqual({
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...access.leadingKeys] },
        });
      }
      const otherTableActions = statements
        .filter((statement) => !statement.Condition)
        .flatMap((statement) => [statement.Action].flat())
        .filter((action) => action.startsWith('dynamodb:'))
        .filter((action) => name !== 'history-events' || !STREAM_READ.includes(action));
      expect(otherTableActions, name).toEqual(access.queriesParentIndex ? ['dynamodb:Query'] : []);
      expect(
        statements.flatMap((statement) => [statement.Action].flat()),
        name,
      ).not.toContain('dynamodb:*');
    }
  });

  it('use no AWS-managed policy: each role writes to its own log group only', () => {
    for (const [, role] of ofType('AWS::IAM::Role').filter(
      ([id]) => id.endsWith('Role') && !id.startsWith('ApiCloudWatch'),
    ))
      expect(
        role.Properties.ManagedPolicyArns,
        JSON.stringify(role.Properties.AssumeRolePolicyDocument),
      ).toBeUndefined();
  });
});

describe('data and messaging', () => {
  it('keeps one on-demand table with the shared keys, TTL, PITR and the parent index', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE_DEFINITION.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_DEFINITION.sortKey, KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      GlobalSecondaryIndexes: [Match.objectLike({ IndexName: TABLE_DEFINITION.byParentIndex.indexName })],
    });
  });

  it('gives both queues a dead-letter queue, encryption and an SSL-only policy', () => {
    const queues = ofType('AWS::SQS::Queue');
    const withRedrive = queues.filter(([, queue]) => queue.Properties.RedrivePolicy);
    expect(withRedrive).toHaveLength(2);
    for (const [, queue] of withRedrive) expect(queue.Properties.RedrivePolicy).toMatchObject({ maxReceiveCount: 5 });
    for (const [, queue] of queues) expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    expect(ofType('AWS::SQS::QueuePolicy')).toHaveLength(queues.length);
  });

  it('feeds delivery-recorder from a FIFO delivery-events queue with partial batch responses', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: 10,
    });
    const fifo = ofType('AWS::SQS::Queue').filter(([, queue]) => queue.Properties.FifoQueue === true);
    // the delivery queue and its dead-letter queue; producers give each message its deduplication id
    expect(fifo).toHaveLength(2);
    for (const [, queue] of fifo) expect(queue.Properties.ContentBasedDeduplication).toBe(false);
  });

  it('starts reset-flush every hour', () => {
    const [, rule] = ofType('AWS::Events::Rule').find(
      ([, candidate]) => candidate.Properties.ScheduleExpression === 'rate(1 hour)',
    )!;
    const target = (rule.Properties.Targets as { Arn: { 'Fn::GetAtt': string[] } }[])[0]!;
    expect(target.Arn['Fn::GetAtt'][0]).toMatch(/^resetflushFunction/);
  });

  it('turns each new history entry into a LimitChanged event and each counter write into LimitReached events from the table stream, retried, never lost silently', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
    const [, mapping] = ofType('AWS::Lambda::EventSourceMapping').find(([, candidate]) =>
      JSON.stringify(candidate.Properties.EventSourceArn).includes('StreamArn'),
    )!;
    expect(mapping.Properties).toMatchObject({
      FunctionName: { Ref: expect.stringMatching(/^historyeventsFunction/) },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRecordAgeInSeconds: 86_400,
      DestinationConfig: { OnFailure: { Destination: expect.anything() } },
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT'],
              dynamodb: { Keys: { SK: { S: [{ prefix: 'HISTORY#' }] } } },
            }),
          },
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT', 'MODIFY'],
              dynamodb: { Keys: { SK: { S: ['COUNTERS', { prefix: 'ACTCTR#' }] } } },
            }),
          },
        ],
      },
    });
    const [, fn] = ofType('AWS::Lambda::Function').find(([id]) => id.startsWith('historyeventsFunction'))!;
    const role = (fn.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
    const actions = ofType('AWS::IAM::Policy')
      .filter(([, policy]) => (policy.Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === role))
      .flatMap(
        ([, policy]) => (policy.Properties.PolicyDocument as { Statement: { Action: string | string[] }[] }).Statement,
      )
      .flatMap((statement) => [statement.Action].flat());
    expect(actions).toContain('events:PutEvents');
  });

  it('lets the delivery recorder publish no event: LimitReached leaves through the table stream only', () => {
    const [, fn] = ofType('AWS::Lambda::Function').find(([id]) => id.startsWith('deliveryrecorderFunction'))!;
    const role = (fn.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
    const actions = ofType('AWS::IAM::Policy')
      .filter(([, policy]) => (policy.Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === role))
      .flatMap(
        ([, policy]) => (policy.Properties.PolicyDocument as { Statement: { Action: string | string[] }[] }).Statement,
      )
      .flatMap((statement) => [statement.Action].flat());
    expect(actions).toContain('dynamodb:UpdateItem');
    expect(actions).not.toContain('events:PutEvents');
  });

  it('alarms on 5xx rate, function errors and throttles, dead letters, queue age and flush failures, all to one topic', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm');
    // 5xx rate; errors and throttles of 8 functions; 3 dead-letter queues; 2 oldest-message ages; stream age;
    // flush failures
    expect(alarms.length).toBe(1 + 8 * 2 + 3 + 2 + 1 + 1);
    const [topicId] = ofType('AWS::SNS::Topic')[0]!;
    for (const [id, alarm] of alarms) expect(alarm.Properties.AlarmActions, id).toEqual([{ Ref: topicId }]);
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });

  it("alarms on the authorizer's own failure metric, per stage, never on refusals (Lambda errors)", () => {
    const [, authorizer] = ofType('AWS::CloudWatch::Alarm').find(([id]) => id.startsWith('authorizerErrors'))!;
    expect(authorizer.Properties).toMatchObject({ Namespace: 'DeliveryLimits/dev', MetricName: 'AuthorizerFailures' });
    // the dimensions Powertools Metrics writes: an alarm without them would watch a metric nobody emits
    expect(authorizer.Properties.Dimensions).toEqual(
      expect.arrayContaining([
        { Name: 'service', Value: 'delivery-limits' },
        { Name: 'stage', Value: 'dev' },
      ]),
    );
    const [, flush] = ofType('AWS::CloudWatch::Alarm').find(([id]) => id.startsWith('FlushFailures'))!;
    expect(flush.Properties.Namespace).toBe('DeliveryLimits/dev');
    const [, recorder] = ofType('AWS::Lambda::Function').find(([id]) => id.startsWith('deliveryrecorderFunction'))!;
    expect((recorder.Properties.Environment as { Variables: Record<string, string> }).Variables.METRICS_NAMESPACE).toBe(
      'DeliveryLimits/dev',
    );
    // Powertools: the stage dimension, and Tracer off unless the stack is synthesised with tracing
    expect((recorder.Properties.Environment as { Variables: Record<string, string> }).Variables).toMatchObject({
      STAGE: 'dev',
      POWERTOOLS_TRACE_ENABLED: 'false',
    });
  });

  it('alarms when the oldest delivery event or reset waits too long', () => {
    const ages = ofType('AWS::CloudWatch::Alarm').filter(
      ([, alarm]) => alarm.Properties.MetricName === 'ApproximateAgeOfOldestMessage',
    );
    expect(ages.map(([, alarm]) => alarm.Properties.Threshold).sort()).toEqual([300, 4500]);
  });

  it('keeps messages 14 days on every queue, archives LimitReached events and logs the authorizer error and key id', () => {
    for (const [id, queue] of ofType('AWS::SQS::Queue'))
      expect(queue.Properties.MessageRetentionPeriod, id).toBe(1_209_600);
    template.hasResourceProperties('AWS::Events::Archive', {
      EventPattern: { source: ['delivery-limits'] },
      RetentionDays: 365,
    });
    const [, stage] = ofType('AWS::ApiGateway::Stage')[0]!;
    const format = JSON.parse((stage.Properties.AccessLogSetting as { Format: string }).Format) as Record<
      string,
      string
    >;
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      authorizerError: '$context.authorizer.error',
      apiKeyId: '$context.identity.apiKeyId',
      principalId: '$context.authorizer.principalId',
    });
  });

  it('limits the queue trigger to 10 recorders at once', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { ScalingConfig: { MaximumConcurrency: 10 } });
  });

  it("keeps every function's resource policy far below Lambda's 20 KB limit (under 15 KB)", () => {
    const policyBytes = new Map<string, number>();
    for (const [, permission] of ofType('AWS::Lambda::Permission')) {
      const target = JSON.stringify(permission.Properties.FunctionName);
      // a statement as Lambda stores it: the permission's properties plus the statement's own frame
      const bytes = JSON.stringify(permission.Properties).length + 200;
      policyBytes.set(target, (policyBytes.get(target) ?? 0) + bytes);
    }
    expect(policyBytes.size).toBeGreaterThan(0);
    for (const [target, bytes] of policyBytes) expect(bytes, target).toBeLessThan(15 * 1024);
  });

  it('pins the logical ids that must never change once deployed', () => {
    for (const id of ['Table', 'Api', 'DeliveryEvents', 'QueuedResets', 'LimitEvents', 'DefaultUsageKey'])
      expect(
        Object.keys(resources).some((logicalId) => logicalId.startsWith(id)),
        id,
      ).toBe(true);
    expect(Object.keys(resources).filter((logicalId) => /^Table[0-9A-F]{8}$/.test(logicalId))).toHaveLength(1);
    expect(Object.keys(resources).filter((logicalId) => /^DeliveryEvents[0-9A-F]{8}$/.test(logicalId))).toHaveLength(1);
  });
});

describe('CORS', () => {
  it('sends the headers from the handlers (CORS_ORIGINS) and from every gateway response', () => {
    const app = buildApp(unbundledApp({ corsOrigins: 'https://ui.limits.test,https://admin.limits.test' }));
    const stack = app.node.children.find((child) => child instanceof DeliveryLimitsStack) as DeliveryLimitsStack;
    const cors = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
    const of = (type: string) => Object.entries(cors).filter(([, resource]) => resource.Type === type);
    for (const [id, fn] of of('AWS::Lambda::Function'))
      expect((fn.Properties.Environment as { Variables: Record<string, string> }).Variables.CORS_ORIGINS, id).toBe(
        'https://ui.limits.test,https://admin.limits.test',
      );
    for (const [id, response] of of('AWS::ApiGateway::GatewayResponse'))
      expect(response.Properties.ResponseParameters, id).toMatchObject({
        'gatewayresponse.header.Access-Control-Allow-Origin': "'https://ui.limits.test'",
      });
    expect(of('AWS::ApiGateway::Method').some(([, method]) => method.Properties.HttpMethod === 'OPTIONS')).toBe(true);
  }, 60_000);
});

describe('production settings', () => {
  const prodApp = (context: Record<string, string> = {}) => {
    const app = unbundledApp({
      stage: 'prod',
      alarmEmail: 'oncall@limits.test',
      mailFrom: 'no-reply@limits.test',
      sesIdentity: 'limits.test',
      appBaseUrl: 'https://ui.limits.test',
      ...context,
    });
    const built = buildApp(app);
    const stack = built.node.children.find((child) => child instanceof DeliveryLimitsStack) as DeliveryLimitsStack;
    return { app: built, stack, template: Template.fromStack(stack) };
  };

  it('retain the table with deletion protection, protect the stack from termination and reserve concurrency', () => {
    const { stack, template: prod } = prodApp();
    prod.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
    });
    expect(stack.terminationProtection).toBe(true);
    const reserved = Object.fromEntries(
      Object.entries(prod.toJSON().Resources as Record<string, Resource>)
        .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function')
        .map(([id, resource]) => [id.replace(/Function.*$/, ''), resource.Properties.ReservedConcurrentExecutions]),
    );
    expect(reserved).toMatchObject({ authorizer: 200, auth: 20, demandlimits: 150, deliveryrecorder: 20 });
  }, 60_000);

  it('refuse to synthesise without an alarm destination or with placeholder values', () => {
    expect(() => prodApp({ alarmEmail: '' })).toThrow(/alarmEmail/);
    expect(() => prodApp({ appBaseUrl: 'https://example.com' })).toThrow(/appBaseUrl/);
    expect(() => prodApp({ mailFrom: 'no-reply@example.com' })).toThrow(/mailFrom/);
    expect(() => prodApp({ alarmEmail: '', alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:oncall' })).not.toThrow();
  }, 60_000);

  it('synthesise clean with tracing on, every cdk-nag acknowledgement carrying its reason', () => {
    expect(() => buildApp(unbundledApp({ tracing: 'true' })).synth()).not.toThrow();
  }, 60_000);
});

describe('cdk-nag (AwsSolutions)', () => {
  it('passes with every finding either fixed or acknowledged with a reason', () => {
    expect(() => buildApp(unbundledApp()).synth()).not.toThrow();
  }, 60_000);

  it('stops synthesis when a limit route loses its authorizer', () => {
    const app = buildApp(unbundledApp());
    const stack = app.node.children.find((child) => child instanceof DeliveryLimitsStack) as DeliveryLimitsStack;
    stack.api.root
      .addResource('unguarded')
      .addMethod('GET', new apigateway.MockIntegration(), { authorizationType: apigateway.AuthorizationType.NONE });
    expect(() => app.synth()).toThrow();
  }, 60_000);
});
