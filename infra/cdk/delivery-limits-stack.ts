import { CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { HISTORY_PREFIX } from '../../shared/table/keys';
import { errorCodeOf } from '../../shared/api/error-codes';
import { REQUEST_ID_HEADER } from '../../shared/api/browser-headers';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { gatewayResourcePath } from '../../shared/api/path-template';
import { ROUTES, type Family } from '../../shared/api/route-table';
import { PREFLIGHT_HEADERS } from '../../shared/api/browser-headers';
import { TABLE_DEFINITION } from '../../shared/table/table-definition';
import { TRACING_MODULES, ESBUILD_TARGET, ESM_REQUIRE_BANNER, FUNCTION_ENTRIES, type FunctionName } from './bundling';
import { FUNCTION_ACCESS } from './function-access';
import { COUNTER_WRITES_PATTERN } from './counter-stream-filter';

export interface DeliveryLimitsStackProps extends StackProps {
  /** API Gateway stage, and the suffix of resource names. */
  stageName: string;
  /** Production keeps the table (RETAIN, deletion protection) when the stack goes. */
  production: boolean;
  logRetention: logs.RetentionDays;
  /** Alarms notify this address, and/or this existing SNS topic; production needs one of them. */
  alarmEmail?: string;
  alarmTopicArn?: string;
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
  /** Throttle and quota of the anonymous plan: form requests that show the authorizer no credential. */
  anonymousThrottle: { rateLimit: number; burstLimit: number };
  anonymousQuotaPerDay: number;
  tracing: boolean;
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

/** Metrics of each stage apart, so that a development failure never trips production's alarms. */
export const metricsNamespace = (stageName: string): string => `DeliveryLimits/${stageName}`;

/** A gateway-made answer in the service's envelope, with its code; a 5xx names the request, as the handlers' do. */
const envelope = (statusCode: string, message: string) => {
  const requestId = statusCode.startsWith('5') ? ',"requestId":"$context.requestId"' : '';
  return {
    'application/json': `{"success":false,"code":"${errorCodeOf(Number(statusCode))}","message":"${message}"${requestId}}`,
  };
};

/** Everything that runs locally, deployed: the same route table, the same table definition, the same handlers. */
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
    bus.archive('LimitEventsArchive', {
      archiveName: `delivery-limits-${props.stageName}-limit-events`,
      eventPattern: { source: ['delivery-limits'] },
      retention: Duration.days(365),
    });

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

    const environment: Record<string, string> = {
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
      ...(props.corsOrigins?.length ? { CORS_ORIGINS: props.corsOrigins.join(',') } : {}),
      NODE_OPTIONS: '--enable-source-maps',
    };

    const makeFunction = (name: FunctionName): nodejs.NodejsFunction => {
      const logGroup = new logs.LogGroup(this, `${name}Logs`, {
        retention: props.logRetention,
        removalPolicy: RemovalPolicy.DESTROY,
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
        environment,
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
          sourceMap: true,
          mainFields: ['module', 'main'],
          banner: ESM_REQUIRE_BANNER,
          externalModules: props.tracing ? [] : TRACING_MODULES,
          forceDockerBundling: false,
        },
      });
      const access = FUNCTION_ACCESS[name];
      if (access.tableActions.length > 0)
        fn.addToRolePolicy(
          new iam.PolicyStatement({
            actions: [...access.tableActions],
            resources: [this.table.tableArn],
            conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...access.leadingKeys] } },
          }),
        );
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
    this.buildAlarms(props, fns, {
      deadLetters: [resets.deadLetters, deliveries.deadLetters, historyDeadLetters],
      resets,
      deliveries,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'DeliveryEventsQueueUrl', { value: deliveries.main.queueUrl });
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
      removalPolicy: RemovalPolicy.DESTROY,
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
        integrations.set(family, new apigateway.LambdaIntegration(fns[family], { allowTestInvoke: false }));
      return integrations.get(family)!;
    };
    for (const route of ROUTES) {
      const method = api.root
        .resourceForPath(gatewayResourcePath(route.path))
        .addMethod(route.method, integration(route.family), {
          ...(route.authenticated
            ? { authorizer, authorizationType: apigateway.AuthorizationType.CUSTOM, apiKeyRequired: true }
            : { authorizationType: apigateway.AuthorizationType.NONE }),
          operationName: `${route.operation}${route.level ? `.${route.level}` : ''}`,
        });
      if (!route.authenticated)
        Validations.of(method).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason: 'Obtaining a token, logging in and resetting a password come before any credential.',
        });
    }

    const responses: [apigateway.ResponseType, string, string][] = [
      [apigateway.ResponseType.UNAUTHORIZED, '401', 'Unauthorized'],
      [apigateway.ResponseType.ACCESS_DENIED, '403', 'Forbidden'],
      [apigateway.ResponseType.MISSING_AUTHENTICATION_TOKEN, '404', 'No such route'],
      [apigateway.ResponseType.THROTTLED, '429', 'Too many requests'],
      [apigateway.ResponseType.QUOTA_EXCEEDED, '429', 'Quota exceeded'],
      [apigateway.ResponseType.REQUEST_TOO_LARGE, '413', 'The request body is too large'],
      [apigateway.ResponseType.AUTHORIZER_FAILURE, '503', 'Authentication is unavailable right now; retry shortly'],
      [apigateway.ResponseType.DEFAULT_4XX, '400', 'Bad request'],
      [apigateway.ResponseType.DEFAULT_5XX, '502', 'Internal error'],
    ];
    for (const [type, statusCode, message] of responses) {
      api.addGatewayResponse(`Response${type.responseType}`, {
        type,
        statusCode:
          type === apigateway.ResponseType.DEFAULT_4XX || type === apigateway.ResponseType.DEFAULT_5XX
            ? undefined
            : statusCode,
        templates: envelope(statusCode, message),
        responseHeaders: {
          'Content-Type': "'application/json; charset=utf-8'",
          [REQUEST_ID_HEADER]: 'context.requestId',
          ...(type === apigateway.ResponseType.AUTHORIZER_FAILURE ? { 'Retry-After': "'1'" } : {}),
          // a gateway response cannot look at the Origin: it names the first allowed origin (the UI's)
          ...(props.corsOrigins?.length
            ? {
                'Access-Control-Allow-Origin': `'${props.corsOrigins[0]}'`,
                'Access-Control-Allow-Credentials': "'true'",
                Vary: "'Origin'",
              }
            : {}),
        },
      });
    }

    const defaultPlan = api.addUsagePlan('DefaultPlan', {
      name: `delivery-limits-${props.stageName}-default`,
      throttle: props.defaultThrottle,
      quota: { limit: props.defaultQuotaPerDay, period: apigateway.Period.DAY },
      apiStages: [{ api, stage: api.deploymentStage }],
    });
    defaultPlan.addApiKey(defaultKey);
    const partnerPlan = api.addUsagePlan('PartnerPlan', {
      name: `delivery-limits-${props.stageName}-partner`,
      throttle: { rateLimit: props.defaultThrottle.rateLimit * 5, burstLimit: props.defaultThrottle.burstLimit * 5 },
      quota: { limit: props.defaultQuotaPerDay * 10, period: apigateway.Period.DAY },
      apiStages: [{ api, stage: api.deploymentStage }],
    });
    new CfnOutput(this, 'PartnerUsagePlanId', { value: partnerPlan.usagePlanId });
    // strangers' form posts (hash in the body, unseen by the authorizer) have a plan and a quota of their own
    const anonymousPlan = api.addUsagePlan('AnonymousPlan', {
      name: `delivery-limits-${props.stageName}-anonymous`,
      throttle: props.anonymousThrottle,
      quota: { limit: props.anonymousQuotaPerDay, period: apigateway.Period.DAY },
      apiStages: [{ api, stage: api.deploymentStage }],
    });
    anonymousPlan.addApiKey(anonymousKey);
    return api;
  }

  private buildAlarms(
    props: DeliveryLimitsStackProps,
    fns: Record<FunctionName, nodejs.NodejsFunction>,
    queues: { deadLetters: sqs.Queue[]; resets: { main: sqs.Queue }; deliveries: { main: sqs.Queue } },
  ): void {
    const topic = props.alarmTopicArn
      ? sns.Topic.fromTopicArn(this, 'Alarms', props.alarmTopicArn)
      : new sns.Topic(this, 'Alarms', { enforceSSL: true });
    if (props.alarmEmail && topic instanceof sns.Topic)
      topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    const notify = (alarm: cloudwatch.Alarm) => alarm.addAlarmAction(new actions.SnsAction(topic));
    const fiveMinutes = Duration.minutes(5);
    const namespace = metricsNamespace(props.stageName);
    // as Powertools Metrics emits them: the service and the stage as dimensions
    const stageMetric = (metricName: string, period: Duration) =>
      new cloudwatch.Metric({
        namespace,
        metricName,
        statistic: 'Sum',
        period,
        dimensionsMap: { service: 'delivery-limits', stage: props.stageName },
      });

    const errorRate = new cloudwatch.MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: {
        errors: this.api.metricServerError({ period: fiveMinutes, statistic: 'Sum' }),
        requests: this.api.metricCount({ period: fiveMinutes, statistic: 'Sum' }),
      },
      label: '5xx rate (%)',
      period: fiveMinutes,
    });
    notify(
      errorRate.createAlarm(this, 'Api5xxRate', {
        threshold: 1,
        evaluationPeriods: 1,
        alarmDescription: 'More than 1% of API requests answered 5xx',
      }),
    );
    for (const [name, fn] of Object.entries(fns)) {
      // the authorizer refuses a bad credential by failing, which Lambda counts as an error: its own metric
      // counts only what is an outage (a throttled table, a bug), never a caller's typo
      const errors =
        name === 'authorizer'
          ? stageMetric('AuthorizerFailures', fiveMinutes)
          : fn.metricErrors({ period: fiveMinutes });
      notify(
        errors.createAlarm(this, `${name}Errors`, {
          threshold: 1,
          evaluationPeriods: 1,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
          alarmDescription:
            name === 'authorizer' ? 'The authorizer failed internally (not a refusal)' : `${name} failed`,
        }),
      );
      notify(
        fn.metricThrottles({ period: fiveMinutes }).createAlarm(this, `${name}Throttles`, {
          threshold: 1,
          evaluationPeriods: 1,
          alarmDescription: `${name} was throttled`,
        }),
      );
    }
    queues.deadLetters.forEach((queue, index) =>
      notify(
        queue
          .metricApproximateNumberOfMessagesVisible({ period: fiveMinutes })
          .createAlarm(this, `DeadLetters${index}`, {
            threshold: 1,
            evaluationPeriods: 1,
            alarmDescription: 'Messages are waiting in a dead-letter queue',
          }),
      ),
    );
    // counters lag (and caps overshoot) while delivery events wait; resets wait up to an hour by design
    const oldest: [string, sqs.Queue, number, string][] = [
      ['DeliveryEventsAge', queues.deliveries.main, 300, 'Delivery events wait more than 5 minutes: counters lag'],
      [
        'QueuedResetsAge',
        queues.resets.main,
        4500,
        'A reset waits more than 75 minutes: the hourly flush is not running',
      ],
    ];
    for (const [id, queue, seconds, description] of oldest)
      notify(
        queue.metricApproximateAgeOfOldestMessage({ period: fiveMinutes, statistic: 'Maximum' }).createAlarm(this, id, {
          threshold: seconds,
          evaluationPeriods: 2,
          alarmDescription: description,
        }),
      );
    notify(
      fns['history-events']
        .metric('IteratorAge', { period: fiveMinutes, statistic: 'Maximum' })
        .createAlarm(this, 'HistoryEventsAge', {
          threshold: 300_000,
          evaluationPeriods: 2,
          alarmDescription: 'LimitChanged events lag the change history by more than 5 minutes',
        }),
    );
    notify(
      stageMetric('ResetsFailed', Duration.hours(1)).createAlarm(this, 'FlushFailures', {
        threshold: 1,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        alarmDescription: 'The hourly flush could not apply some resets',
      }),
    );

    new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `delivery-limits-${props.stageName}`,
      widgets: [
        [
          new cloudwatch.GraphWidget({
            title: 'API requests and errors',
            left: [this.api.metricCount(), this.api.metricClientError(), this.api.metricServerError()],
          }),
          new cloudwatch.GraphWidget({
            title: 'API latency (p50, p99)',
            left: [this.api.metricLatency({ statistic: 'p50' }), this.api.metricLatency({ statistic: 'p99' })],
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Function errors',
            left: Object.values(fns).map((fn) => fn.metricErrors()),
          }),
          new cloudwatch.GraphWidget({
            title: 'Function duration p99',
            left: Object.values(fns).map((fn) => fn.metricDuration({ statistic: 'p99' })),
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Delivery recording',
            left: ['RecordedEvents', 'UnknownEntityEvents', 'DeadLetteredMessages', 'CounterWrites'].map(
              (metricName) =>
                new cloudwatch.Metric({ namespace: metricsNamespace(props.stageName), metricName, statistic: 'Sum' }),
            ),
          }),
          new cloudwatch.GraphWidget({
            title: 'Resets',
            left: ['ResetsApplied', 'ResetsDropped', 'ResetsFailed'].map(
              (metricName) =>
                new cloudwatch.Metric({ namespace: metricsNamespace(props.stageName), metricName, statistic: 'Sum' }),
            ),
          }),
        ],
      ],
    });
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
      'AwsSolutions-APIG3',
      'WAF is a per-account decision of the platform team; the API is throttled by usage plans.',
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
