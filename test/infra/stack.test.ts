import { readFileSync } from 'node:fs';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../infra/cdk/app';
import { DeliveryLimitsStack } from '../../infra/cdk/delivery-limits-stack';
import { ESBUILD_TARGET } from '../../infra/cdk/bundling';
import { FUNCTION_ACCESS } from '../../infra/cdk/function-access';
import { QUEUE_POLLER_ACTIONS } from '../../infra/cdk/queue-grants';
import { AGE_THRESHOLDS_SECONDS } from '../../infra/cdk/queue-alarms';
import { QUEUE_RETENTION_DAYS } from '../../infra/cdk/queues';
import { RETRY_DELAYS_SECONDS } from '../../shared/domain/webhooks/retry-schedule';
import { gatewayResourcePath } from '../../shared/api/path-template';
import { REFERENCE_PATHS } from '../../shared/api/openapi/published-reference';
import { ROUTES } from '../../shared/api/route-table';
import { TABLE_DEFINITION } from '../../shared/table/table-definition';
import { DEFAULT_PLAN, partnerPlan } from '../../shared/domain/metering/partner-quota';
import { TEMPLATE_RESOURCE_BUDGET } from './stack-templates';
import {
  PRODUCTION_CONTEXT,
  PRODUCTION_DOMAIN,
  queueActionsOf,
  synthesize,
  synthesizedTemplate,
  templatesOf,
  unbundledApp,
  type Resource,
  type SynthesizedTemplate,
} from './template';

let synthesized: SynthesizedTemplate;
let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  synthesized = synthesizedTemplate();
  ({ template, resources } = synthesized);
}, 300_000);

const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

/** Every IAM action granted to the role of the function whose logical id starts with the prefix. */
const policyActionsOf = (functionIdPrefix: string): string[] => {
  const [, fn] = ofType('AWS::Lambda::Function').find(([id]) => id.startsWith(functionIdPrefix))!;
  const role = (fn.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
  return ofType('AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === role))
    .flatMap(
      ([, policy]) => (policy.Properties.PolicyDocument as { Statement: { Action: string | string[] }[] }).Statement,
    )
    .flatMap((statement) => [statement.Action].flat());
};

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
  it('has one method per route-table entry (and HEAD beside every GET), with the authorizer and an API key where the route needs them', () => {
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
    const expected = ROUTES.flatMap((route) =>
      (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]).map((httpMethod) => ({ route, httpMethod })),
    );
    // and the API reference, which test/infra/reference-docs.test.ts checks
    const reference = Object.values(REFERENCE_PATHS).flatMap((path) => [`GET ${path}`, `HEAD ${path}`]);
    expect(methods.map((method) => method.key).sort()).toEqual(
      [
        ...expected.map(({ route, httpMethod }) => `${httpMethod} ${gatewayResourcePath(route.path)}`),
        ...reference,
      ].sort(),
    );
    for (const { route, httpMethod } of expected) {
      const method = methods.find((candidate) => candidate.key === `${httpMethod} ${gatewayResourcePath(route.path)}`)!;
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
    // ten form-body partners at a keyed partner's 250/s (burst 500), no daily quota: WAF holds each source
    // address to one partner's rate
    expect(anonymous[1].Properties).toMatchObject({ Throttle: { RateLimit: 2500, BurstLimit: 5000 } });
    expect(anonymous[1].Properties.Quota).toBeUndefined();
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
  });

  it("keeps the stage's execution logs in a log group of its own, and sets the account's CloudWatch role with a role it keeps", () => {
    const [, stage] = ofType('AWS::ApiGateway::Stage')[0]!;
    const [apiId, api] = ofType('AWS::ApiGateway::RestApi')[0]!;
    const [logsId, executionLogs] = ofType('AWS::Logs::LogGroup').find(([, group]) =>
      JSON.stringify(group.Properties.LogGroupName ?? '').includes('API-Gateway-Execution-Logs_'),
    )!;
    expect(executionLogs.Properties.LogGroupName).toEqual({
      'Fn::Join': ['', ['API-Gateway-Execution-Logs_', { Ref: apiId }, `/${stage.Properties.StageName}`]],
    });
    // created before the stage logs anything, with the retention of the stack's other log groups
    expect((stage as Resource & { DependsOn: string[] }).DependsOn).toContain(logsId);
    const [, accessLogs] = ofType('AWS::Logs::LogGroup').find(([id]) => id.startsWith('ApiAccessLogs'))!;
    expect(executionLogs.Properties.RetentionInDays).toBe(accessLogs.Properties.RetentionInDays);
    const [, account] = ofType('AWS::ApiGateway::Account')[0]!;
    const roleId = (account.Properties.CloudWatchRoleArn as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]!;
    expect(resources[roleId]!.DeletionPolicy).toBe('Retain');
    expect(api.Properties.Name).toBe(`delivery-limits-${stage.Properties.StageName}`);
  });

  it('logs access as JSON, with metrics, and never request bodies', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
    });
    const [, stage] = ofType('AWS::ApiGateway::Stage')[0]!;
    const settings = stage.Properties.MethodSettings as Record<string, unknown>[];
    expect(settings.map((setting) => setting.ResourcePath)).toContain('/*');
    // a method's own settings replace the stage's: every one of them logs and never a body
    for (const setting of settings)
      expect(setting, String(setting.ResourcePath)).toMatchObject({ MetricsEnabled: true, DataTraceEnabled: false });
  });
});

describe('functions', () => {
  it('run Node.js 24, the Node.js their bundles target, on arm64 with JSON logs', () => {
    const functions = ofType('AWS::Lambda::Function').map(([, fn]) => fn.Properties);
    // every function of bundling.ts, and the API reference's
    expect(functions).toHaveLength(Object.keys(FUNCTION_ACCESS).length + 1);
    expect(ESBUILD_TARGET).toBe('node24');
    for (const fn of functions)
      expect(fn).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        LoggingConfig: { LogFormat: 'JSON' },
      });
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
      GlobalSecondaryIndexes: [
        Match.objectLike({
          IndexName: TABLE_DEFINITION.byParentIndex.indexName,
          Projection: { ProjectionType: 'ALL' },
        }),
        Match.objectLike({
          IndexName: TABLE_DEFINITION.byUpdateShareIndex.indexName,
          Projection: { ProjectionType: 'KEYS_ONLY' },
        }),
      ],
    });
  });

  it('gives every work queue a dead-letter queue, encryption and an SSL-only policy', () => {
    const queues = ofType('AWS::SQS::Queue');
    const withRedrive = queues.filter(([, queue]) => queue.Properties.RedrivePolicy);
    // resets, delivery events, webhook events and the fast lane after 5 receives; the slow lane, which dead-letters
    // a delivery's last attempt itself, after 13
    expect(
      withRedrive
        .map(([, queue]) => (queue.Properties.RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount)
        .sort((a, b) => a - b),
    ).toEqual([5, 5, 5, 5, 13]);
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

  it('turns each new history entry into a LimitChanged event and each counter write near a cap into LimitReached events from the table stream, retried, never lost silently', () => {
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
      MaximumRecordAgeInSeconds: 21_600,
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
              dynamodb: {
                Keys: { SK: { S: ['COUNTERS', { prefix: 'COUNTERS#' }, { prefix: 'ACTCTR#' }] } },
                // a counter write that proved it reached no cap is left in the stream
                NewImage: { xr: { BOOL: [true] } },
              },
            }),
          },
        ],
      },
    });
    const actions = policyActionsOf('historyeventsFunction');
    expect(actions).toContain('events:PutEvents');
  });

  it("grants each queue trigger what Lambda's poller sends, and the on-failure queue SendMessage alone", () => {
    const queue = (name: string) =>
      ofType('AWS::SQS::Queue').find(([id]) => new RegExp(`^${name}[0-9A-F]{8}$`).test(id))![0];
    expect(queueActionsOf(synthesized, 'delivery-recorder')).toEqual({
      [queue('DeliveryEvents')]: [...QUEUE_POLLER_ACTIONS].sort(),
      [queue('DeliveryEventsDlq')]: ['sqs:SendMessage'],
    });
    expect(queueActionsOf(synthesized, 'history-events')).toEqual({ [queue('HistoryEventsDlq')]: ['sqs:SendMessage'] });
  });

  it('lets the delivery recorder publish no event: LimitReached leaves through the table stream only', () => {
    const actions = policyActionsOf('deliveryrecorderFunction');
    expect(actions).toContain('dynamodb:UpdateItem');
    expect(actions).not.toContain('events:PutEvents');
  });

  it('alarms when the oldest delivery event, reset or webhook event waits too long, or when nothing reads its queue', () => {
    const ages = ofType('AWS::CloudWatch::Alarm').filter(
      ([, alarm]) => alarm.Properties.MetricName === 'ApproximateAgeOfOldestMessage',
    );
    const queueOf = (alarm: Resource) =>
      (alarm.Properties.Dimensions as { Value: { 'Fn::GetAtt': string[] } }[])[0]!.Value['Fn::GetAtt'][0]!;
    expect(
      Object.fromEntries(
        ages.map(([, alarm]) => [queueOf(alarm).replace(/[0-9A-F]{8}$/, ''), alarm.Properties.Threshold]),
      ),
    ).toEqual({
      DeliveryEvents: AGE_THRESHOLDS_SECONDS.deliveryEvents,
      QueuedResets: AGE_THRESHOLDS_SECONDS.queuedResets,
      WebhookEvents: AGE_THRESHOLDS_SECONDS.webhookEvents,
    });
    // a queue's age is written while its trigger or the flush reads it: none at all means nothing reads it
    for (const [id, alarm] of ages) expect(alarm.Properties.TreatMissingData, id).toBe('breaching');
  });

  it('alarms when the stream trigger stops while counters are written, and not on an idle stream', () => {
    const [, alarm] = ofType('AWS::CloudWatch::Alarm').find(([id]) => id.startsWith('HistoryEventsAge'))!;
    const queries = alarm.Properties.Metrics as {
      Id: string;
      Expression?: string;
      MetricStat?: { Metric: { MetricName: string } };
    }[];
    expect(queries.find((query) => query.Expression)!.Expression).toBe(
      'IF(FILL(nearCapWrites, 0) > 0 AND FILL(invocations, 0) == 0, 86400000, FILL(age, 0))',
    );
    expect(
      Object.fromEntries(
        queries.filter((query) => query.MetricStat).map((query) => [query.Id, query.MetricStat!.Metric.MetricName]),
      ),
    ).toEqual({ age: 'IteratorAge', invocations: 'Invocations', nearCapWrites: 'NearCapWrites' });
    expect(alarm.Properties).toMatchObject({
      Threshold: AGE_THRESHOLDS_SECONDS.stream * 1000,
      EvaluationPeriods: 2,
      TreatMissingData: 'notBreaching',
    });
  });

  it("pages on the reference function's errors and throttles, as on every API function's", () => {
    const alarmIds = ofType('AWS::CloudWatch::Alarm').map(([id]) => id);
    for (const id of ['referenceErrors', 'referenceThrottles'])
      expect(
        alarmIds.some((alarmId) => alarmId.startsWith(id)),
        id,
      ).toBe(true);
  });

  it('keeps a message longer in a dead-letter queue than in its source, archives LimitReached events and logs the authorizer error and key id', () => {
    const days = (queue: Resource) => Number(queue.Properties.MessageRetentionPeriod) / 86_400;
    const deadLetterIds = new Set<string>();
    for (const [id, queue] of ofType('AWS::SQS::Queue').filter(([, candidate]) => candidate.Properties.RedrivePolicy)) {
      const target = (queue.Properties.RedrivePolicy as { deadLetterTargetArn: { 'Fn::GetAtt': string[] } })
        .deadLetterTargetArn['Fn::GetAtt'][0]!;
      deadLetterIds.add(target);
      expect(days(queue), id).toBe(QUEUE_RETENTION_DAYS.work);
      // a standard queue's dead letter keeps its first enqueue time: it must outlive its source
      expect(days(resources[target]!), target).toBeGreaterThan(days(queue));
    }
    expect(deadLetterIds.size).toBe(4);
    for (const [id, queue] of ofType('AWS::SQS::Queue').filter(([, candidate]) => !candidate.Properties.RedrivePolicy))
      expect(days(queue), id).toBe(QUEUE_RETENTION_DAYS.deadLetters);
    // a webhook delivery lives through its whole retry schedule before SQS could drop it
    const [, deliveries] = ofType('AWS::SQS::Queue').find(([id]) => /^WebhookDeliveries[0-9A-F]{8}$/.test(id))!;
    const schedule = RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0);
    expect(Number(deliveries.Properties.MessageRetentionPeriod)).toBeGreaterThan(schedule);
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

  it('lets API Gateway invoke each family function through one permission scoped to this API', () => {
    const apiPermissions = ofType('AWS::Lambda::Permission').filter(
      ([, permission]) => permission.Properties.Principal === 'apigateway.amazonaws.com',
    );
    const families = [...new Set(ROUTES.map((route) => route.family))];
    // the families, the authorizer's own and the API reference's
    expect(apiPermissions).toHaveLength(families.length + 2);
    for (const [id, permission] of apiPermissions)
      expect(JSON.stringify(permission.Properties.SourceArn), id).toContain('execute-api');
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
    // validated with every other setting in the cdk-nag tests
    const { ofType: of } = synthesize({ corsOrigins: 'https://ui.limits.test,https://admin.limits.test' });
    const families = of('AWS::Lambda::Function').filter(([id]) =>
      ['auth', 'demandlimits', 'supplylimits', 'peraction', 'webhooks'].some((family) =>
        id.startsWith(`${family}Function`),
      ),
    );
    expect(families).toHaveLength(5);
    for (const [id, fn] of families)
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

describe('cdk-nag (AwsSolutions)', () => {
  it('passes with every finding either fixed or acknowledged with a reason', () => {
    expect(() => buildApp(unbundledApp()).synth()).not.toThrow();
  }, 60_000);

  it('passes for production with the documented context values', () => {
    expect(() => buildApp(unbundledApp(PRODUCTION_CONTEXT)).synth()).not.toThrow();
  }, 60_000);

  it('synthesises clean with tracing on, every cdk-nag acknowledgement carrying its reason', () => {
    expect(() => buildApp(unbundledApp({ tracing: 'true' })).synth()).not.toThrow();
  }, 60_000);

  it('synthesises clean with every setting of the operations guide given at once, alarms to an existing topic', () => {
    const everySetting = {
      ...PRODUCTION_CONTEXT,
      stage: 'prod',
      alarmEmail: '',
      alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:oncall',
      corsOrigins: `https://ui.${PRODUCTION_DOMAIN},https://admin.${PRODUCTION_DOMAIN}`,
      rateLimit: '60',
      burstLimit: '120',
      quotaPerDay: '200000',
      formBodyPartners: '12',
      anonymousRateLimit: '3000',
      anonymousBurstLimit: '6000',
      anonymousQuotaPerDay: '5000000',
      wafRateLimitPerIp: '3000',
      wafRequestsPerIp: '9000',
      deliveryEventsPerSecond: '2000000',
      eventsPerMessage: '100',
      writeUnitsPerBatch: '561',
      apiRequestsPerSecond: '5000',
      stageRateLimit: '12000',
      stageBurstLimit: '24000',
      maxWriteRequestUnits: '1200000',
      maxReadRequestUnits: '40000',
      reservedConcurrency: 'true',
      // the load above reserves some 1,500 (the recorders' 220, the push path's sized from it): a raised quota
      accountConcurrencyLimit: '2000',
      deliveryMaxConcurrency: '200',
      recorderReservedConcurrency: '220',
      autoShardWritesPerSecond: '500',
      autoShardCount: '16',
      futureToleranceSeconds: '600',
      tracing: 'true',
      sourceMaps: 'true',
      apiGatewayAccountRole: 'false',
    };
    const guide = readFileSync('docs/operations.md', 'utf8').split('## Context settings')[1]!.split('\n## ')[0]!;
    const documented = [...guide.matchAll(/^\| (.+?) \|/gm)].flatMap(([, names]) =>
      [...names!.matchAll(/`(\w+)`/g)].map(([, name]) => name!),
    );
    expect(documented.length).toBeGreaterThan(30);
    expect(Object.keys(everySetting).sort()).toEqual([...new Set(documented)].sort());
    const app = buildApp(unbundledApp(everySetting));
    expect(() => app.synth()).not.toThrow();
    const synthesized = templatesOf(app);
    // another stage, or the account's administrators, set the account's CloudWatch role
    expect(synthesized.ofType('AWS::ApiGateway::Account')).toEqual([]);
    expect(synthesized.ofType('AWS::IAM::Role').filter(([id]) => id.startsWith('ApiCloudWatchRole'))).toEqual([]);
    for (const [name, template] of Object.entries(synthesized.templates))
      expect(template.resources, name).toBeLessThanOrEqual(TEMPLATE_RESOURCE_BUDGET);
  }, 60_000);

  it('stops synthesis on a route without an authorizer and on a grant on "*", tracing on: no finding is hidden stack-wide', () => {
    // built, not yet synthesized: a synthesis judges the stack as it stands then
    const app = buildApp(unbundledApp({ tracing: 'true' }, { validate: false }));
    const stack = app.node.children.find((child) => child instanceof DeliveryLimitsStack) as DeliveryLimitsStack;
    stack.api.root
      .addResource('unguarded')
      .addMethod('GET', new apigateway.MockIntegration(), { authorizationType: apigateway.AuthorizationType.NONE });
    // a traced function's policy holds X-Ray's grants on "*" already, which are acknowledged there
    stack.functions['demand-limits'].addToRolePolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:DescribeTable'], resources: ['*'] }),
    );
    let report = '';
    try {
      app.synth();
    } catch (error) {
      report = (error as Error).message;
    }
    for (const finding of ['AwsSolutions-APIG4', 'AwsSolutions-COG4', 'AwsSolutions-IAM5'])
      expect(report, finding).toContain(finding);
    expect(report).toMatch(/demand-limitsRole\/DefaultPolicy/);
    expect(report).not.toMatch(/authRole\/DefaultPolicy/);
  }, 60_000);
});
