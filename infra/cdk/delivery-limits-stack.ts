import { CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { HISTORY_PREFIX } from '../../shared/table/keys';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { gatewayResourcePath } from '../../shared/api/path-template';
import { methodsOf, ROUTES, type Family } from '../../shared/api/route-table';
import { PREFLIGHT_HEADERS } from '../../shared/api/browser-headers';
import { TABLE_DEFINITION } from '../../shared/table/table-definition';
import { TRACING_MODULES, ESBUILD_TARGET, ESM_REQUIRE_BANNER, FUNCTION_ENTRIES, type FunctionName } from './bundling';
import { FUNCTION_ACCESS, type TableGrant } from './function-access';
import { buildAlarms, metricsNamespace } from './alarms';
import { buildDashboard } from './dashboard';
import { environmentOf, type EnvironmentVariable } from './function-environment';
import { addGatewayAnswers } from './gateway-responses';
import { protectStage } from './web-acl';
import { COUNTER_WRITES_PATTERN } from './counter-stream-filter';
import { partnerPlan } from '../../shared/domain/metering/partner-quota';

export interface DeliveryLimitsStackProps extends StackProps {
  /** API Gateway stage, and the suffix of resource names. */
  stageName: string;
  /** Production keeps the table (deletion protection), the log groups and the event archive when the stack goes. */
  production: boolean;
  logRetention: logs.RetentionDays;
  /** Alarms notify this address, and/or this existing SNS topic; production needs one of them. */
  alarmEmail?: string;
  alarmTopicArn?: string;
  /** Where the operations runbook is read; every alarm's description links its section. */
  runbookUrl: string;
  /** Sender of password-reset mail, and the SES identity (address or domain) allowed to send it. */
  mailFrom: string;
  sesIdentity: string;
  /** Base URL of the UI that reset links point to. */
  appBaseUrl: string;
  /** Browser origins allowed by CORS; none, no CORS. */
  corsOrigins?: string[];
  /** Throttle and quota of the default usage plan (hash and session callers, and keys without a plan of their own). */
  defaultThrottle: { rateLimit: number; burstLimit: number };
  defaultQuotaPerDay: number;
  /**
   * Throttle (and optional daily quota) of the anonymous plan: form requests that show the authorizer no
   * credential, strangers' and form-body partners' alike.
   */
  anonymousThrottle: { rateLimit: number; burstLimit: number };
  anonymousQuotaPerDay?: number;
  /** How far after its message's receipt an event's `at` may lie before it counts at the receipt (clock skew). */
  futureToleranceSeconds: number;
  /** AWS WAF: credential-less requests one source address may send in five minutes. */
  credentialLessPerIpLimit: number;
  tracing: boolean;
  /** Source maps in the bundles and `--enable-source-maps`: readable stack traces, for a slower cold start. */
  sourceMaps: boolean;
  /**
   * Limits on blast radius: reserved concurrency per function (none when absent), and how many recorder
   * invocations the delivery queue may start at once.
   */
  reservedConcurrency?: Partial<Record<FunctionName, number>>;
  deliveryMaxConcurrency: number;
}

interface FunctionSettings {
  memorySize: number;
  timeout: Duration;
}

const SETTINGS: Record<FunctionName, FunctionSettings> = {
  authorizer: { memorySize: 256, timeout: Duration.seconds(10) },
  auth: { memorySize: 512, timeout: Duration.seconds(10) },
  'demand-limits': { memorySize: 1024, timeout: Duration.seconds(29) },
  'supply-limits': { memorySize: 512, timeout: Duration.seconds(29) },
  'per-action': { memorySize: 512, timeout: Duration.seconds(29) },
  'delivery-recorder': { memorySize: 1024, timeout: Duration.seconds(60) },
  'reset-flush': { memorySize: 512, timeout: Duration.minutes(5) },
  'history-events': { memorySize: 256, timeout: Duration.seconds(30) },
};

/** Everything that runs locally, deployed: the same route table, the same table definition, the same handlers. */
/** A keyed partner's plan, which the limit families also keep for partners signing in the form body. */
const partnerLimits = (props: DeliveryLimitsStackProps) =>
  partnerPlan({ ...props.defaultThrottle, quotaPerDay: props.defaultQuotaPerDay });

export class DeliveryLimitsStack extends Stack {
  readonly api: apigateway.RestApi;
  readonly table: dynamodb.Table;
  readonly functions: Record<FunctionName, nodejs.NodejsFunction>;
  private readonly tracing: boolean;

  constructor(scope: Construct, id: string, props: DeliveryLimitsStackProps) {
    super(scope, id, props);
    this.tracing = props.tracing;
    const { partitionKey, sortKey, timeToLiveAttribute, byParentIndex } = TABLE_DEFINITION;
    const streamView = dynamodb.StreamViewType[TABLE_DEFINITION.streamView];

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute,
      stream: streamView,
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: props.production,
      removalPolicy: props.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: byParentIndex.indexName,
      partitionKey: { name: byParentIndex.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: byParentIndex.sortKey, type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.ALL,
    });

    const queue = (name: string, visibilityTimeout: Duration, fifo = false) => {
      const ordering = fifo ? { fifo: true, contentBasedDeduplication: false } : {};
      const deadLetters = new sqs.Queue(this, `${name}Dlq`, {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
        ...ordering,
      });
      const main = new sqs.Queue(this, name, {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout,
        retentionPeriod: Duration.days(14),
        deadLetterQueue: { queue: deadLetters, maxReceiveCount: 5 },
        ...(fifo
          ? {
              ...ordering,
              deduplicationScope: sqs.DeduplicationScope.MESSAGE_GROUP,
              fifoThroughputLimit: sqs.FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
            }
          : {}),
      });
      return { main, deadLetters };
    };
    const resets = queue('QueuedResets', Duration.minutes(6));
    // FIFO: each message has its place in its message group, which counter items record to apply it exactly once.
    // Visibility: six times the recorder's timeout, as AWS advises for event source mappings.
    const deliveries = queue('DeliveryEvents', Duration.minutes(6), true);
    const historyDeadLetters = new sqs.Queue(this, 'HistoryEventsDlq', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    const bus = new events.EventBus(this, 'LimitEvents', { eventBusName: `delivery-limits-${props.stageName}` });
    // every LimitReached kept for a year, to replay into a consumer that was down or is new
    const archive = bus.archive('LimitEventsArchive', {
      archiveName: `delivery-limits-${props.stageName}-limit-events`,
      eventPattern: { source: ['delivery-limits'] },
      retention: Duration.days(365),
    });
    archive.applyRemovalPolicy(this.retainedInProduction(props));

    // metering identities, no credentials: with apiKeySource AUTHORIZER only the authorizer can name them, so
    // their values can sit in the authorizer's environment and no cold start asks API Gateway for them
    const meteringValue = (role: string) => `${this.stackName}-${role}-usage-${this.account}-${this.region}`;
    const defaultKey = new apigateway.ApiKey(this, 'DefaultUsageKey', {
      description: 'Meters hash and session callers without a metering key of their own',
      value: meteringValue('default'),
    });
    const anonymousKey = new apigateway.ApiKey(this, 'AnonymousUsageKey', {
      description: 'Meters form requests that show no credential to the authorizer',
      value: meteringValue('anonymous'),
    });

    const partner = partnerLimits(props);
    const environment: Record<EnvironmentVariable, string | undefined> = {
      TABLE_NAME: this.table.tableName,
      RESET_QUEUE_URL: resets.main.queueUrl,
      DELIVERY_DLQ_URL: deliveries.deadLetters.queueUrl,
      EVENT_BUS_NAME: bus.eventBusName,
      MAIL_FROM: props.mailFrom,
      APP_BASE_URL: props.appBaseUrl,
      DEFAULT_USAGE_KEY: meteringValue('default'),
      ANONYMOUS_USAGE_KEY: meteringValue('anonymous'),
      METRICS_NAMESPACE: metricsNamespace(props.stageName),
      STAGE: props.stageName,
      POWERTOOLS_TRACE_ENABLED: String(props.tracing),
      CORS_ORIGINS: props.corsOrigins?.length ? props.corsOrigins.join(',') : undefined,
      PARTNER_RATE_LIMIT: String(partner.rateLimit),
      PARTNER_BURST_LIMIT: String(partner.burstLimit),
      PARTNER_QUOTA_PER_DAY: String(partner.quotaPerDay),
      FUTURE_TOLERANCE_SECONDS: String(props.futureToleranceSeconds),
      // automatic sharding of hot advertisers' counters (docs/capacity.md): off unless both are given
      AUTO_SHARD_WRITES_PER_SECOND: this.node.tryGetContext('autoShardWritesPerSecond')?.toString(),
      AUTO_SHARD_COUNT: this.node.tryGetContext('autoShardCount')?.toString(),
    };

    const makeFunction = (name: FunctionName): nodejs.NodejsFunction => {
      const logGroup = new logs.LogGroup(this, `${name}Logs`, {
        retention: props.logRetention,
        removalPolicy: this.retainedInProduction(props),
      });
      // a role of its own that may write to its own log group only, rather than the AWS-managed execution policy
      const role = new iam.Role(this, `${name}Role`, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
      role.addToPolicy(
        new iam.PolicyStatement({
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resources: [logGroup.logGroupArn],
        }),
      );
      const fn = new nodejs.NodejsFunction(this, `${name}Function`, {
        role,
        entry: FUNCTION_ENTRIES[name],
        handler: 'handler',
        runtime: lambda.Runtime.NODEJS_22_X,
        architecture: lambda.Architecture.ARM_64,
        ...SETTINGS[name],
        environment: {
          ...environmentOf(name, environment),
          ...(props.sourceMaps ? { NODE_OPTIONS: '--enable-source-maps' } : {}),
        },
        loggingFormat: lambda.LoggingFormat.JSON,
        logGroup,
        tracing: props.tracing ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
        ...(props.reservedConcurrency?.[name] !== undefined
          ? { reservedConcurrentExecutions: props.reservedConcurrency[name] }
          : {}),
        depsLockFilePath: 'package-lock.json',
        bundling: {
          format: nodejs.OutputFormat.ESM,
          target: ESBUILD_TARGET,
          minify: true,
          sourceMap: props.sourceMaps,
          mainFields: ['module', 'main'],
          banner: ESM_REQUIRE_BANNER,
          externalModules: props.tracing ? [] : TRACING_MODULES,
          forceDockerBundling: false,
        },
      });
      const access = FUNCTION_ACCESS[name];
      // reads and writes in statements of their own, each limited to its partitions
      const grant = (sid: string, { actions, leadingKeys }: TableGrant) =>
        fn.addToRolePolicy(
          new iam.PolicyStatement({
            sid,
            actions: [...actions],
            resources: [this.table.tableArn],
            conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...leadingKeys] } },
          }),
        );
      if (access.reads) grant('TableReads', access.reads);
      if (access.writes) grant('TableWrites', access.writes);
      if (access.queriesParentIndex)
        fn.addToRolePolicy(
          new iam.PolicyStatement({
            actions: ['dynamodb:Query'],
            resources: [`${this.table.tableArn}/index/${byParentIndex.indexName}`],
          }),
        );
      return fn;
    };
    this.functions = Object.fromEntries(
      (Object.keys(FUNCTION_ENTRIES) as FunctionName[]).map((name) => [name, makeFunction(name)]),
    ) as Record<FunctionName, nodejs.NodejsFunction>;
    const fns = this.functions;

    fns.auth.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [this.formatArn({ service: 'ses', resource: 'identity', resourceName: props.sesIdentity })],
      }),
    );
    for (const family of ['demand-limits', 'supply-limits'] as const) resets.main.grantSendMessages(fns[family]);
    deliveries.deadLetters.grantSendMessages(fns['delivery-recorder']);
    fns['delivery-recorder'].addEventSource(
      // a FIFO source takes at most 10 messages a batch and no batching window; a message carries many events
      new SqsEventSource(deliveries.main, {
        batchSize: 10,
        reportBatchItemFailures: true,
        maxConcurrency: props.deliveryMaxConcurrency,
      }),
    );
    resets.main.grantConsumeMessages(fns['reset-flush']);
    // every new history entry becomes a LimitChanged event, every counter write that reaches a cap a LimitReached
    // event; a batch that keeps failing is split down to the record, and a record still failing after a day of
    // retries is described in the dead-letter queue
    bus.grantPutEventsTo(fns['history-events']);
    fns['history-events'].addEventSource(
      new DynamoEventSource(this.table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: 1000,
        maxRecordAge: Duration.days(1),
        onFailure: new SqsDlq(historyDeadLetters),
        filters: [
          lambda.FilterCriteria.filter({
            eventName: lambda.FilterRule.isEqual('INSERT'),
            dynamodb: { Keys: { SK: { S: lambda.FilterRule.beginsWith(HISTORY_PREFIX) } } },
          }),
          lambda.FilterCriteria.filter(COUNTER_WRITES_PATTERN),
        ],
      }),
    );
    Validations.of(fns['history-events'].role!).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
      reason:
        'dynamodb:ListStreams has no resource type, so it is granted on "*"; CDK adds it with the table stream trigger, whose other actions name the stream.',
    });
    Validations.of(historyDeadLetters).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is the stream trigger on-failure destination: it is itself where failures go.',
    });
    new events.Rule(this, 'HourlyResetFlush', {
      schedule: events.Schedule.rate(Duration.hours(1)),
      targets: [new targets.LambdaFunction(fns['reset-flush'], { retryAttempts: 2 })],
    });

    this.api = this.buildApi(props, fns, { defaultKey, anonymousKey });
    protectStage(this, this.api, props.credentialLessPerIpLimit);
    const deadLetters = {
      QueuedResetsDlq: resets.deadLetters,
      DeliveryEventsDlq: deliveries.deadLetters,
      HistoryEventsDlq: historyDeadLetters,
    };
    const alarms = buildAlarms(this, {
      ...props,
      api: this.api,
      functions: fns,
      deadLetters,
      deliveries: deliveries.main,
      resets: resets.main,
    });
    buildDashboard(this, { stageName: props.stageName, api: this.api, functions: fns, deadLetters, alarms });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'DeliveryEventsQueueUrl', { value: deliveries.main.queueUrl });
    new CfnOutput(this, 'DeliveryDeadLetterQueueUrl', { value: deliveries.deadLetters.queueUrl });
    new CfnOutput(this, 'LimitEventsBusName', { value: bus.eventBusName });
    this.acknowledgeFindings();
  }

  private buildApi(
    props: DeliveryLimitsStackProps,
    fns: Record<FunctionName, nodejs.NodejsFunction>,
    { defaultKey, anonymousKey }: { defaultKey: apigateway.ApiKey; anonymousKey: apigateway.ApiKey },
  ): apigateway.RestApi {
    const accessLogs = new logs.LogGroup(this, 'ApiAccessLogs', {
      retention: props.logRetention,
      removalPolicy: this.retainedInProduction(props),
    });
    const api = new apigateway.RestApi(this, 'Api', {
      restApiName: `delivery-limits-${props.stageName}`,
      apiKeySourceType: apigateway.ApiKeySourceType.AUTHORIZER,
      cloudWatchRole: true,
      deployOptions: {
        stageName: props.stageName,
        accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
        accessLogFormat: apigateway.AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            requestTime: '$context.requestTime',
            httpMethod: '$context.httpMethod',
            resourcePath: '$context.resourcePath',
            status: '$context.status',
            responseLength: '$context.responseLength',
            integrationLatency: '$context.integrationLatency',
            principalId: '$context.authorizer.principalId',
            authorizerError: '$context.authorizer.error',
            authorizerStatus: '$context.authorizer.status',
            apiKeyId: '$context.identity.apiKeyId',
            sourceIp: '$context.identity.sourceIp',
            userAgent: '$context.identity.userAgent',
          }),
        ),
        metricsEnabled: true,
        loggingLevel: apigateway.MethodLoggingLevel.ERROR,
        // never log request or response bodies: they carry passwords and tokens
        dataTraceEnabled: false,
        tracingEnabled: props.tracing,
        throttlingRateLimit: 1000,
        throttlingBurstLimit: 2000,
      },
      ...(props.corsOrigins?.length
        ? {
            defaultCorsPreflightOptions: {
              allowOrigins: props.corsOrigins,
              allowHeaders: PREFLIGHT_HEADERS.split(','),
              allowCredentials: true,
            },
          }
        : {}),
    });

    const authorizer = new apigateway.RequestAuthorizer(this, 'Authorizer', {
      handler: fns.authorizer,
      // any of three credentials may come, so there is no identity source to cache on
      identitySources: [],
      resultsCacheTtl: Duration.seconds(0),
    });
    const integrations = new Map<Family, apigateway.LambdaIntegration>();
    const integration = (family: Family) => {
      if (!integrations.has(family))
        // one invoke permission per function for the whole API: a permission per method (GET and HEAD on every
        // resource) would outgrow Lambda's 20 KB resource policy; the family's router refuses paths not its own
        integrations.set(family, new apigateway.LambdaIntegration(fns[family], { scopePermissionToMethod: false }));
      return integrations.get(family)!;
    };
    // HEAD is answered wherever GET is, by the same function (API Gateway sends no body in a HEAD answer)
    for (const route of ROUTES)
      for (const httpMethod of methodsOf(route)) {
        const method = api.root
          .resourceForPath(gatewayResourcePath(route.path))
          .addMethod(httpMethod, integration(route.family), {
            ...(route.authenticated
              ? { authorizer, authorizationType: apigateway.AuthorizationType.CUSTOM, apiKeyRequired: true }
              : { authorizationType: apigateway.AuthorizationType.NONE }),
            operationName: `${route.operation}${route.level ? `.${route.level}` : ''}${httpMethod === 'HEAD' ? '.head' : ''}`,
          });
        if (!route.authenticated)
          Validations.of(method).acknowledge({
            id: 'AwsSolutions-APIG4',
            reason: 'Obtaining a token, logging in and resetting a password come before any credential.',
          });
      }

    addGatewayAnswers(api, props.corsOrigins);

    const defaultPlan = api.addUsagePlan('DefaultPlan', {
      name: `delivery-limits-${props.stageName}-default`,
      throttle: props.defaultThrottle,
      quota: { limit: props.defaultQuotaPerDay, period: apigateway.Period.DAY },
      apiStages: [{ api, stage: api.deploymentStage }],
    });
    defaultPlan.addApiKey(defaultKey);
    const partner = partnerLimits(props);
    const partnerUsagePlan = api.addUsagePlan('PartnerPlan', {
      name: `delivery-limits-${props.stageName}-partner`,
      throttle: { rateLimit: partner.rateLimit, burstLimit: partner.burstLimit },
      quota: { limit: partner.quotaPerDay, period: apigateway.Period.DAY },
      apiStages: [{ api, stage: api.deploymentStage }],
    });
    new CfnOutput(this, 'PartnerUsagePlanId', { value: partnerUsagePlan.usagePlanId });
    // strangers' form posts (hash in the body, unseen by the authorizer) have a plan and a quota of their own
    const anonymousPlan = api.addUsagePlan('AnonymousPlan', {
      name: `delivery-limits-${props.stageName}-anonymous`,
      throttle: props.anonymousThrottle,
      ...(props.anonymousQuotaPerDay !== undefined
        ? { quota: { limit: props.anonymousQuotaPerDay, period: apigateway.Period.DAY } }
        : {}),
      apiStages: [{ api, stage: api.deploymentStage }],
    });
    anonymousPlan.addApiKey(anonymousKey);
    return api;
  }

  /** What production keeps when the stack goes: its logs and its event archive, as it keeps the table. */
  private retainedInProduction(props: DeliveryLimitsStackProps): RemovalPolicy {
    return props.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
  }

  /** cdk-nag findings that are decisions, each with its reason. */
  private acknowledgeFindings(): void {
    const acknowledge = (id: string, reason: string) => Validations.of(this).acknowledge({ id, reason });
    acknowledge(
      'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      'API Gateway execution logging needs the account-level CloudWatch role, which AWS documents with this managed policy.',
    );
    acknowledge(
      'AwsSolutions-APIG2',
      'Requests are validated by the handlers, which answer the JSON envelope the spec requires; API Gateway models would answer in another shape.',
    );
    acknowledge(
      'AwsSolutions-COG4',
      'Callers authenticate with API keys, Epom hash parameters or sessions through a Lambda authorizer, not Cognito.',
    );
    acknowledge('AwsSolutions-L1', 'The runtime is fixed to Node.js 22, the newest the deployment targets.');
    if (this.tracing)
      acknowledge(
        'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
        'X-Ray accepts trace segments only on "*" (xray:PutTraceSegments and xray:PutTelemetryRecords have no resource type); CDK grants exactly those two actions when tracing is on.',
      );
  }
}
