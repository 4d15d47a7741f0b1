import { CfnOutput, Stack } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type { Construct } from 'constructs';
import { buildAlarms } from './alarms';
import { buildDashboard } from './dashboard';
import type { ServiceData } from './data-stack';
import { environmentValues } from './environment-values';
import { connectFunctions } from './function-connections';
import { buildFunctions, type ServiceFunctions } from './functions';
import { GatewayStack } from './gateway-stack';
import { buildReferenceFunction } from './reference-docs';
import type { DeliveryLimitsStackProps } from './stack-props';

export interface ServiceStackProps extends DeliveryLimitsStackProps {
  /** The stage's data stack: what the functions read and write, and where the alarms go. */
  data: ServiceData;
}

/**
 * The stateless half of a stage (`DeliveryLimits-<stage>`), everything that runs locally, deployed: the same route
 * table, the same handlers, on the data stack's table, queues and bus. The functions and the alarms are built on
 * the stack itself, so that every resource keeps the logical id it has always had; the API Gateway is a nested
 * stack. Redeploying this stack never touches the data.
 */
export class DeliveryLimitsStack extends Stack {
  readonly api: apigateway.RestApi;
  readonly functions: ServiceFunctions;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    const { table, queues, bus, alarmTopic } = props.data;
    const environment = environmentValues(this, props, { table, queues, bus });
    this.functions = buildFunctions(this, table, { ...props, environment });
    connectFunctions(this, this.functions, { ...props, table, queues, bus });
    const reference = buildReferenceFunction(this, props);
    const gateway = new GatewayStack(this, 'Gateway', { ...props, functions: this.functions, reference });
    this.api = gateway.api;

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
      topic: alarmTopic,
      api: this.api,
      table,
      functions: this.functions,
      deadLetters,
      deliveries: queues.deliveries.main,
      resets: queues.resets.main,
      webhookEvents: queues.webhookEvents.main,
      reference,
    });
    buildDashboard(this, { ...props, api: this.api, table, functions: this.functions, deadLetters, alarms });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'PartnerUsagePlanId', { value: gateway.partnerPlan.usagePlanId });
    new CfnOutput(this, 'DeliveryEventsQueueUrl', { value: queues.deliveries.main.queueUrl });
    new CfnOutput(this, 'DeliveryDeadLetterQueueUrl', { value: queues.deliveries.deadLetters.queueUrl });
    new CfnOutput(this, 'LimitEventsBusName', { value: bus.eventBusName });
    new CfnOutput(this, 'WebhookDeliveriesQueueUrl', { value: queues.webhookDeliveries.main.queueUrl });
    new CfnOutput(this, 'WebhookDeadLetterQueueUrl', { value: queues.webhookDeliveries.deadLetters.queueUrl });
  }
}
