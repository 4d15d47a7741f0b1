import { describe, expect, it } from 'vitest';
import { DELIVERY_ATTEMPTS } from '../../shared/domain/webhooks/retry-schedule';
import { QUEUE_POLLER_ACTIONS } from '../../infra/cdk/queue-grants';
import { dispatcherSizing } from '../../infra/cdk/push-path';
import { DEVELOPMENT_LOAD } from '../../infra/cdk/load-settings';
import { WEBHOOK_LANES } from '../../infra/cdk/webhook-settings';
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
  it('is started by the events queue and by each lane, each with containers of its own sized from the load', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping')
      .map(([, mapping]) => mapping.Properties)
      .filter((properties) => JSON.stringify(properties.FunctionName).includes(functionId));
    // the template's load: a development stage's, its default
    const { events, fast, slow } = dispatcherSizing(DEVELOPMENT_LOAD);
    expect(
      mappings.map((properties) => [properties.EventSourceArn, properties.ScalingConfig, properties.BatchSize]),
    ).toEqual([
      [arnOf(queueId('WebhookEvents')), { MaximumConcurrency: events.maxConcurrency }, events.batchSize],
      [arnOf(queueId('WebhookDeliveries')), { MaximumConcurrency: fast.maxConcurrency }, fast.batchSize],
      [arnOf(queueId('WebhookSlowLane')), { MaximumConcurrency: slow.maxConcurrency }, slow.batchSize],
    ]);
    for (const properties of mappings)
      expect(properties).toMatchObject({ FunctionResponseTypes: ['ReportBatchItemFailures'] });
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

  it("dead-letters a lane's message its own failures keep coming back, past every scheduled attempt in the slow lane", () => {
    const redrive = (name: string) => resources[queueId(name)]!.Properties;
    const dlq = arnOf(queueId('WebhookDeliveriesDlq'));
    expect(redrive('WebhookDeliveries')).toMatchObject({
      VisibilityTimeout: 360,
      RedrivePolicy: { deadLetterTargetArn: dlq, maxReceiveCount: WEBHOOK_LANES.fast.maxReceiveCount },
    });
    // the slow lane dead-letters its last failed attempt itself: its receives leave room for the service's own failures
    expect(redrive('WebhookSlowLane')).toMatchObject({
      VisibilityTimeout: 360,
      RedrivePolicy: { deadLetterTargetArn: dlq, maxReceiveCount: WEBHOOK_LANES.slow.maxReceiveCount },
    });
    expect(WEBHOOK_LANES.slow.maxReceiveCount).toBeGreaterThan(DELIVERY_ATTEMPTS);
    expect(dispatcher.Properties.Timeout).toBe(60);
  });

  it('may poll its three queues, send to both lanes and their dead letters, hide messages in the slow lane only, and nothing else of SQS', () => {
    // the triggers' polling (receive, delete, the queue's attributes) and what the code sends itself: no
    // GetQueueUrl (the URLs are in its environment), no ChangeMessageVisibility but in the slow lane
    expect(queueActionsOf(synthesized, 'webhook-dispatcher')).toEqual({
      [queueId('WebhookEvents')]: [...QUEUE_POLLER_ACTIONS].sort(),
      [queueId('WebhookDeliveries')]: [...QUEUE_POLLER_ACTIONS, 'sqs:SendMessage'].sort(),
      [queueId('WebhookSlowLane')]: [...QUEUE_POLLER_ACTIONS, 'sqs:ChangeMessageVisibility', 'sqs:SendMessage'].sort(),
      [queueId('WebhookDeliveriesDlq')]: ['sqs:SendMessage'],
    });
    const variables = (dispatcher.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables).toMatchObject({
      WEBHOOK_DELIVERIES_QUEUE_URL: expect.anything(),
      WEBHOOK_SLOW_LANE_QUEUE_URL: expect.anything(),
      WEBHOOK_DELIVERIES_DLQ_URL: expect.anything(),
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
