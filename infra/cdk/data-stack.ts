import { Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { EVENT_SOURCE, LIMIT_CHANGED, LIMIT_REACHED } from '../../shared/domain/event-names';
import { buildAlarmTopic } from './alarm-topic';
import { buildLimitEventBus } from './limit-events';
import { buildQueues, type ServiceQueues } from './queues';
import { resetFlushRuleName } from './reset-schedule';
import type { DeliveryLimitsStackProps } from './stack-props';
import { buildTable } from './table';

/** What the stateless stack reads, writes and alarms to: everything that holds data. */
export interface ServiceData {
  table: dynamodb.Table;
  queues: ServiceQueues;
  bus: events.EventBus;
  alarmTopic: sns.ITopic;
}

/**
 * The stateful half of a stage (`DeliveryLimits-<stage>-data`): the table, the queues and their dead letters, the
 * event bus and its archive, the alarm topic; all retained in production. The service stack (functions, API,
 * alarms) is deployed beside it as often as it changes, and never touches these. The builders create their
 * resources on this stack itself, so their logical ids are the ones they had in the single stack.
 */
export class DeliveryLimitsDataStack extends Stack implements ServiceData {
  readonly table: dynamodb.Table;
  readonly queues: ServiceQueues;
  readonly bus: events.EventBus;
  readonly alarmTopic: sns.ITopic;

  constructor(scope: Construct, id: string, props: DeliveryLimitsStackProps) {
    super(scope, id, props);
    this.table = buildTable(this, props);
    this.queues = buildQueues(this, props.production);
    this.bus = buildLimitEventBus(this, props.stageName, props.production);
    this.alarmTopic = buildAlarmTopic(this, props);
    // LimitReached and LimitChanged off the bus into the webhook dispatcher's queue: three parts of this stack
    new events.Rule(this, 'WebhookEventsRule', {
      eventBus: this.bus,
      eventPattern: { source: [EVENT_SOURCE], detailType: [LIMIT_REACHED, LIMIT_CHANGED] },
      targets: [
        new targets.SqsQueue(this.queues.webhookEvents.main, {
          deadLetterQueue: this.queues.webhookEvents.deadLetters,
        }),
      ],
    });
    this.letResetRuleDeadLetter(resetFlushRuleName(props.stageName));
  }

  /** The service stack's hourly rule, named, may put an invocation it could not make in its dead-letter queue. */
  private letResetRuleDeadLetter(ruleName: string): void {
    const queue = this.queues.resetRuleDeadLetters;
    queue.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'HourlyResetFlushRule',
        principals: [new iam.ServicePrincipal('events.amazonaws.com')],
        actions: ['sqs:SendMessage'],
        resources: [queue.queueArn],
        conditions: {
          ArnEquals: {
            'aws:SourceArn': this.formatArn({ service: 'events', resource: 'rule', resourceName: ruleName }),
          },
        },
      }),
    );
  }
}
