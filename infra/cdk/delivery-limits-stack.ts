import { CfnOutput, Stack, Validations } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { buildAlarms } from './alarms';
import { addRoutes } from './api-routes';
import { buildDashboard } from './dashboard';
import { environmentValues } from './environment-values';
import { connectFunctions } from './function-connections';
import { buildFunctions, type ServiceFunctions } from './functions';
import { addGatewayAnswers } from './gateway-responses';
import { buildLimitEventBus } from './limit-events';
import { buildQueues } from './queues';
import { publishReference } from './reference-docs';
import { buildRestApi } from './rest-api';
import type { DeliveryLimitsStackProps } from './stack-props';
import { buildTable } from './table';
import { buildMeteringKeys } from './usage-keys';
import { addUsagePlans } from './usage-plans';
import { protectStage } from './web-acl';

/**
 * Everything that runs locally, deployed: the same route table, the same table definition, the same handlers.
 * Each part is built by its own file on the stack itself, so that every resource keeps the logical id it has
 * always had.
 */
export class DeliveryLimitsStack extends Stack {
  readonly api: apigateway.RestApi;
  readonly table: dynamodb.Table;
  readonly functions: ServiceFunctions;

  constructor(scope: Construct, id: string, props: DeliveryLimitsStackProps) {
    super(scope, id, props);
    this.table = buildTable(this, props);
    const queues = buildQueues(this, props.production);
    const bus = buildLimitEventBus(this, props.stageName, props.production);
    const meteringKeys = buildMeteringKeys(this);
    const environment = environmentValues(this, props, { table: this.table, queues, bus });
    this.functions = buildFunctions(this, this.table, { ...props, environment });
    connectFunctions(this, this.functions, { ...props, table: this.table, queues, bus });

    this.api = buildRestApi(this, props);
    addRoutes(this, this.api, this.functions);
    publishReference(this, this.api, props);
    addGatewayAnswers(this.api, props.corsOrigins);
    addUsagePlans(this, this.api, props, meteringKeys);
    protectStage(this, this.api, props);

    const deadLetters = {
      QueuedResetsDlq: queues.resets.deadLetters,
      DeliveryEventsDlq: queues.deliveries.deadLetters,
      HistoryEventsDlq: queues.historyDeadLetters,
      HourlyResetFlushDlq: queues.resetRuleDeadLetters,
      WebhookEventsDlq: queues.webhookEvents.deadLetters,
      WebhookDeliveriesDlq: queues.webhookDeliveries.deadLetters,
    };
    const alarms = buildAlarms(this, {
      ...props,
      api: this.api,
      functions: this.functions,
      deadLetters,
      deliveries: queues.deliveries.main,
      resets: queues.resets.main,
    });
    buildDashboard(this, { stageName: props.stageName, api: this.api, functions: this.functions, deadLetters, alarms });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'DeliveryEventsQueueUrl', { value: queues.deliveries.main.queueUrl });
    new CfnOutput(this, 'DeliveryDeadLetterQueueUrl', { value: queues.deliveries.deadLetters.queueUrl });
    new CfnOutput(this, 'LimitEventsBusName', { value: bus.eventBusName });
    new CfnOutput(this, 'WebhookDeliveriesQueueUrl', { value: queues.webhookDeliveries.main.queueUrl });
    new CfnOutput(this, 'WebhookDeadLetterQueueUrl', { value: queues.webhookDeliveries.deadLetters.queueUrl });
    this.acknowledgeFindings(props.tracing);
  }

  /** cdk-nag findings that are decisions, each with its reason. */
  private acknowledgeFindings(tracing: boolean): void {
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
    if (tracing)
      acknowledge(
        'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
        'X-Ray accepts trace segments only on "*" (xray:PutTraceSegments and xray:PutTelemetryRecords have no resource type); CDK grants exactly those two actions when tracing is on.',
      );
  }
}
