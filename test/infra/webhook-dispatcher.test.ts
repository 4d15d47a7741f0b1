import { describe, expect, it } from 'vitest';
import { DELIVERY_ATTEMPTS } from '../../shared/domain/webhooks/retry-schedule';
import { QUEUE_POLLER_ACTIONS } from '../../infra/cdk/queue-grants';
import { queueActionsOf, synthesizedTemplate } from './template';

const synthesized = synthesizedTemplate();
const { ofType, resources } = synthesized;

/** A queue's logical id by its construct id: `WebhookEvents` is not `WebhookEventsDlq`. */
const queueId = (name: string) =>
  ofType('AWS::SQS::Queue').find(([id]) => new RegExp(`^${name}[0-9A-F]{8}$`).test(id))![0];
const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
const [functionId, dispatcher] = ofType('AWS::Lambda::Function').find(([id]) =>
  id.startsWith('webhookdispatcherFunction'),
)!;

describe('the webhook dispatcher', () => {
  it('is started by the webhook events queue and the deliveries queue, with partial batch responses', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping')
      .map(([, mapping]) => mapping.Properties)
      .filter((properties) => JSON.stringify(properties.FunctionName).includes(functionId));
    expect(mappings.map((properties) => properties.EventSourceArn)).toEqual([
      arnOf(queueId('WebhookEvents')),
      arnOf(queueId('WebhookDeliveries')),
    ]);
    for (const properties of mappings)
      expect(properties).toMatchObject({
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: 10 },
      });
  });

  it('hears LimitReached and LimitChanged of this service on its bus, through the events queue', () => {
    const [, rule] = ofType('AWS::Events::Rule').find(([id]) => id.startsWith('WebhookEventsRule'))!;
    expect(rule.Properties.EventPattern).toEqual({
      source: ['delivery-limits'],
      'detail-type': ['LimitReached', 'LimitChanged'],
    });
    const [busId] = ofType('AWS::Events::EventBus')[0]!;
    expect(rule.Properties.EventBusName).toEqual({ Ref: busId });
    expect(rule.Properties.Targets).toEqual([
      expect.objectContaining({
        Arn: arnOf(queueId('WebhookEvents')),
        DeadLetterConfig: { Arn: arnOf(queueId('WebhookEventsDlq')) },
      }),
    ]);
  });

  it('dead-letters a delivery after its last scheduled attempt, and keeps a message hidden longer than a batch takes', () => {
    const deliveries = resources[queueId('WebhookDeliveries')]!.Properties;
    expect(deliveries).toMatchObject({
      VisibilityTimeout: 360,
      RedrivePolicy: {
        deadLetterTargetArn: arnOf(queueId('WebhookDeliveriesDlq')),
        maxReceiveCount: DELIVERY_ATTEMPTS,
      },
    });
    expect(dispatcher.Properties.Timeout).toBe(60);
  });

  it('may poll both queues, send to and hide messages in the deliveries queue, send to its dead letters, and nothing else of SQS', () => {
    // the triggers' polling (receive, delete, the queue's attributes) and what the code sends itself: no
    // GetQueueUrl (the URLs are in its environment) and no ChangeMessageVisibility on the events queue
    expect(queueActionsOf(synthesized, 'webhook-dispatcher')).toEqual({
      [queueId('WebhookEvents')]: [...QUEUE_POLLER_ACTIONS].sort(),
      [queueId('WebhookDeliveries')]: [
        ...QUEUE_POLLER_ACTIONS,
        'sqs:ChangeMessageVisibility',
        'sqs:SendMessage',
      ].sort(),
      [queueId('WebhookDeliveriesDlq')]: ['sqs:SendMessage'],
    });
    const variables = (dispatcher.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables).toMatchObject({
      WEBHOOK_DELIVERIES_QUEUE_URL: { Ref: queueId('WebhookDeliveries') },
      WEBHOOK_DELIVERIES_DLQ_URL: { Ref: queueId('WebhookDeliveriesDlq') },
    });
  });

  it('pages when a delivery or an event is dead-lettered, linking the runbook', () => {
    for (const name of ['WebhookDeliveriesDlq', 'WebhookEventsDlq']) {
      const alarm = ofType('AWS::CloudWatch::Alarm').find(([id]) => id.startsWith(`${name}Arrivals`));
      expect(alarm, name).toBeDefined();
      expect(JSON.stringify(alarm![1].Properties.AlarmDescription)).toContain(`#${name.toLowerCase()}arrivals`);
      expect(JSON.stringify(alarm![1].Properties.Metrics)).toContain(queueId(name));
    }
  });
});
