import { Duration, type Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { HISTORY_PREFIX } from '../../shared/table/keys';
import { STREAM_TRIGGER } from '../../shared/table/stream-trigger';
import { COUNTER_WRITES_PATTERN } from './counter-stream-filter';
import { DELIVERY_QUEUE } from './delivery-settings';
import type { ServiceFunctions } from './functions';
import { grantQueueActions, QUEUE_POLLER_ACTIONS } from './queue-grants';
import type { ServiceQueues } from './queues';
import type { Load } from './capacity';
import { dispatcherSizing, STREAM_PARALLELIZATION_FACTOR } from './push-path';
import { RESET_FLUSH_RATE, resetFlushRuleName } from './reset-schedule';

export interface FunctionPeers {
  stageName: string;
  table: dynamodb.ITable;
  queues: ServiceQueues;
  bus: events.IEventBus;
  /** The SES identity (address or domain) password-reset mail is sent from. */
  sesIdentity: string;
  /** How many recorder invocations the delivery queue may start at once. */
  deliveryMaxConcurrency: number;
  /** The load the push path's triggers are sized for. */
  load: Load;
}

/**
 * A queue that starts the function, with partial batch responses, and the grants its poller uses: an event source
 * mapping of our own, since CDK's `SqsEventSource` grants what nothing sends.
 */
const queueTrigger = (
  fn: lambda.Function,
  queue: sqs.IQueue,
  {
    batchSize,
    maxConcurrency,
    batchingWindowSeconds = 0,
  }: { batchSize: number; maxConcurrency: number; batchingWindowSeconds?: number },
): void => {
  grantQueueActions(fn, queue, QUEUE_POLLER_ACTIONS);
  fn.addEventSourceMapping(`${queue.node.id}Trigger`, {
    eventSourceArn: queue.queueArn,
    batchSize,
    ...(batchingWindowSeconds > 0 ? { maxBatchingWindow: Duration.seconds(batchingWindowSeconds) } : {}),
    reportBatchItemFailures: true,
    maxConcurrency,
  });
};

const connectDeliveryRecorder = (recorder: lambda.Function, { queues, deliveryMaxConcurrency }: FunctionPeers) => {
  grantQueueActions(recorder, queues.deliveries.deadLetters, ['sqs:SendMessage']);
  // a FIFO source takes at most 10 messages a batch and no batching window; a message carries many events
  queueTrigger(recorder, queues.deliveries.main, {
    batchSize: DELIVERY_QUEUE.batchSize,
    maxConcurrency: deliveryMaxConcurrency,
  });
};

const connectResetFlush = (stack: Stack, flush: lambda.Function, { queues, stageName }: FunctionPeers) => {
  grantQueueActions(flush, queues.resets.main, ['sqs:ReceiveMessage', 'sqs:DeleteMessage']);
  new events.Rule(stack, 'HourlyResetFlush', {
    ruleName: resetFlushRuleName(stageName),
    schedule: events.Schedule.rate(RESET_FLUSH_RATE),
    // an invocation EventBridge could not make (throttled, the function missing or refusing) lands in the queue
    // within the hour, before the next one; an invocation that ran and failed is the function's own error alarm
    targets: [
      new targets.LambdaFunction(flush, {
        retryAttempts: 2,
        maxEventAge: RESET_FLUSH_RATE,
        // the queue's own policy, in the data stack, lets this rule (by its name) send: a reference from there to
        // this stack would make each stack depend on the other
        deadLetterQueue: sqs.Queue.fromQueueArn(
          stack,
          'HourlyResetFlushDeadLetters',
          queues.resetRuleDeadLetters.queueArn,
        ),
      }),
    ],
  });
};

// every new history entry becomes a LimitChanged event, every counter write that reaches a cap (each marked as
// maybe reaching one, the only counter writes the filter passes) a LimitReached event; a record the function cannot decode or judge it sends to the dead-letter queue itself, and a batch whose
// transient failure outlasts the trigger's bounds (shared/table/stream-trigger.ts) is described there too
const connectHistoryEvents = (historyEvents: lambda.Function, { table, queues, bus }: FunctionPeers) => {
  bus.grantPutEventsTo(historyEvents);
  // the stream as Lambda's poller reads it; the on-failure queue takes what the function sends itself too, and
  // SendMessage is all either sends (CDK's SqsDlq grants GetQueueUrl and GetQueueAttributes besides)
  table.grantStreamRead(historyEvents);
  grantQueueActions(historyEvents, queues.historyDeadLetters, ['sqs:SendMessage']);
  historyEvents.addEventSourceMapping('TableStreamTrigger', {
    eventSourceArn: table.tableStreamArn!,
    startingPosition: lambda.StartingPosition.TRIM_HORIZON,
    batchSize: STREAM_TRIGGER.batchSize,
    // one batch of a shard at a time keeps each entity's events in their order; the shards are the parallelism
    parallelizationFactor: STREAM_PARALLELIZATION_FACTOR,
    maxBatchingWindow: Duration.seconds(STREAM_TRIGGER.maxBatchingWindowSeconds),
    reportBatchItemFailures: true,
    bisectBatchOnError: STREAM_TRIGGER.bisectBatchOnError,
    retryAttempts: STREAM_TRIGGER.retryAttempts,
    maxRecordAge: Duration.seconds(STREAM_TRIGGER.maxRecordAgeSeconds),
    onFailure: { bind: () => ({ destination: queues.historyDeadLetters.queueArn }) },
    filters: [
      lambda.FilterCriteria.filter({
        eventName: lambda.FilterRule.isEqual('INSERT'),
        dynamodb: { Keys: { SK: { S: lambda.FilterRule.beginsWith(HISTORY_PREFIX) } } },
      }),
      lambda.FilterCriteria.filter(COUNTER_WRITES_PATTERN),
    ],
  });
};

/**
 * LimitReached and LimitChanged of this service, off its bus (the data stack's rule puts them in the events queue),
 * to the dispatcher, which fans each out to the fast lane and, from there, delivers; a failing subscription's
 * deliveries move to the slow lane. The three queues trigger it, each with containers of its own sized from the load
 * (`dispatcherSizing`); its queue tells a message's lane. In the slow lane, a failed attempt sets its message's
 * visibility to wait the schedule's next step (ChangeMessageVisibility, the dispatcher's own request).
 */
const connectWebhookDispatcher = (dispatcher: lambda.Function, { queues, load }: FunctionPeers) => {
  grantQueueActions(dispatcher, queues.webhookDeliveries.main, ['sqs:SendMessage']);
  grantQueueActions(dispatcher, queues.webhookSlowLane, ['sqs:SendMessage', 'sqs:ChangeMessageVisibility']);
  grantQueueActions(dispatcher, queues.webhookDeliveries.deadLetters, ['sqs:SendMessage']);
  const { events, fast, slow } = dispatcherSizing(load);
  for (const [queue, lane] of [
    [queues.webhookEvents.main, events],
    [queues.webhookDeliveries.main, fast],
    [queues.webhookSlowLane, slow],
  ] as const)
    queueTrigger(dispatcher, queue, lane);
};

/** What each function may reach besides the table, and what starts the functions no API request starts. */
export const connectFunctions = (stack: Stack, functions: ServiceFunctions, peers: FunctionPeers): void => {
  functions.auth.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: [stack.formatArn({ service: 'ses', resource: 'identity', resourceName: peers.sesIdentity })],
    }),
  );
  for (const family of ['demand-limits', 'supply-limits'] as const)
    grantQueueActions(functions[family], peers.queues.resets.main, ['sqs:SendMessage']);
  connectDeliveryRecorder(functions['delivery-recorder'], peers);
  connectResetFlush(stack, functions['reset-flush'], peers);
  connectHistoryEvents(functions['history-events'], peers);
  connectWebhookDispatcher(functions['webhook-dispatcher'], peers);
};
