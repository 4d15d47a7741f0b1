import { Duration, Validations, type Stack } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { STREAM_TRIGGER } from '../../shared/table/stream-trigger';
import { DELIVERY_QUEUE } from './delivery-settings';
import { retainedInProduction } from './retention';
import { WEBHOOK_LANES, WEBHOOK_QUEUES } from './webhook-settings';

export interface QueueWithDeadLetters {
  main: sqs.Queue;
  deadLetters: sqs.Queue;
}

export interface ServiceQueues {
  resets: QueueWithDeadLetters;
  deliveries: QueueWithDeadLetters;
  /** Where the table stream trigger describes the records it gave up on. */
  historyDeadLetters: sqs.Queue;
  /** Where EventBridge puts an hourly flush it could not start (after its own retries). */
  resetRuleDeadLetters: sqs.Queue;
  /** LimitReached and LimitChanged off the bus, for the webhook dispatcher to fan out. */
  webhookEvents: QueueWithDeadLetters;
  /** One message per delivery to a subscription: the fast lane, with the dead-letter queue both lanes share. */
  webhookDeliveries: QueueWithDeadLetters;
  /** The slow lane: deliveries of failing subscriptions, retried on the Standard Webhooks schedule. */
  webhookSlowLane: sqs.Queue;
}

/**
 * Days SQS keeps a message: a work queue a week (to bring a stopped consumer back), a dead-letter queue the 14 days
 * SQS allows at most, longer than its source. A standard queue's message keeps its first enqueue time when SQS moves
 * it to the dead-letter queue, so there it is kept 14 days from when it was first queued: never less than the week
 * between the two (a webhook delivery, dead-lettered after its attempts' 27 h 35 min, 12 days and 20 hours). A FIFO
 * queue's dead letter is kept 14 days from its move.
 */
export const QUEUE_RETENTION_DAYS = { work: 7, deadLetters: 14 } as const;

const QUEUE_BASICS = {
  encryption: sqs.QueueEncryption.SQS_MANAGED,
  enforceSSL: true,
};
const DEAD_LETTER_RETENTION = Duration.days(QUEUE_RETENTION_DAYS.deadLetters);

interface QueueOptions {
  visibilityTimeout: Duration;
  production: boolean;
  fifo?: boolean;
  maxReceiveCount?: number;
}

const queueWithDeadLetters = (
  stack: Stack,
  name: string,
  { visibilityTimeout, production, fifo = false, maxReceiveCount = DELIVERY_QUEUE.maxReceiveCount }: QueueOptions,
): QueueWithDeadLetters => {
  const ordering = fifo ? { fifo: true, contentBasedDeduplication: false } : {};
  // production keeps undelivered work and dead letters when the stack goes; the names are generated, so a
  // redeploy beside the kept queues creates new ones
  const removalPolicy = retainedInProduction(production);
  const deadLetters = new sqs.Queue(stack, `${name}Dlq`, {
    ...QUEUE_BASICS,
    retentionPeriod: DEAD_LETTER_RETENTION,
    ...ordering,
    removalPolicy,
  });
  // spelt out in this order: the template's CDK metadata records the order of a construct's properties
  const main = new sqs.Queue(stack, name, {
    encryption: QUEUE_BASICS.encryption,
    enforceSSL: QUEUE_BASICS.enforceSSL,
    visibilityTimeout,
    retentionPeriod: Duration.days(QUEUE_RETENTION_DAYS.work),
    deadLetterQueue: { queue: deadLetters, maxReceiveCount },
    ...(fifo
      ? {
          ...ordering,
          deduplicationScope: sqs.DeduplicationScope.MESSAGE_GROUP,
          fifoThroughputLimit: sqs.FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
        }
      : {}),
    removalPolicy,
  });
  return { main, deadLetters };
};

/** The queued resets, the delivery events, the history trigger's and the hourly rule's dead letters. */
export const buildQueues = (stack: Stack, production: boolean): ServiceQueues => {
  const resets = queueWithDeadLetters(stack, 'QueuedResets', { visibilityTimeout: Duration.minutes(6), production });
  // FIFO: each message has its place in its message group, which counter items record to apply it exactly once.
  const deliveries = queueWithDeadLetters(stack, 'DeliveryEvents', {
    visibilityTimeout: Duration.seconds(DELIVERY_QUEUE.visibilityTimeoutSeconds),
    production,
    fifo: true,
  });
  const deadLettersOnly = {
    ...QUEUE_BASICS,
    retentionPeriod: DEAD_LETTER_RETENTION,
    removalPolicy: retainedInProduction(production),
  };
  const historyDeadLetters = new sqs.Queue(stack, STREAM_TRIGGER.onFailure, deadLettersOnly);
  const resetRuleDeadLetters = new sqs.Queue(stack, 'HourlyResetFlushDlq', deadLettersOnly);
  for (const queue of [historyDeadLetters, resetRuleDeadLetters])
    Validations.of(queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is an on-failure destination (a trigger or a rule target): it is itself where failures go.',
    });
  const webhookVisibility = Duration.seconds(WEBHOOK_QUEUES.visibilityTimeoutSeconds);
  const webhookEvents = queueWithDeadLetters(stack, 'WebhookEvents', {
    visibilityTimeout: webhookVisibility,
    production,
    maxReceiveCount: WEBHOOK_QUEUES.eventMaxReceiveCount,
  });
  const webhookDeliveries = queueWithDeadLetters(stack, 'WebhookDeliveries', {
    visibilityTimeout: webhookVisibility,
    production,
    maxReceiveCount: WEBHOOK_LANES.fast.maxReceiveCount,
  });
  const webhookSlowLane = new sqs.Queue(stack, 'WebhookSlowLane', {
    encryption: QUEUE_BASICS.encryption,
    enforceSSL: QUEUE_BASICS.enforceSSL,
    visibilityTimeout: webhookVisibility,
    retentionPeriod: Duration.days(QUEUE_RETENTION_DAYS.work),
    deadLetterQueue: { queue: webhookDeliveries.deadLetters, maxReceiveCount: WEBHOOK_LANES.slow.maxReceiveCount },
    removalPolicy: retainedInProduction(production),
  });
  return {
    resets,
    deliveries,
    historyDeadLetters,
    resetRuleDeadLetters,
    webhookEvents,
    webhookDeliveries,
    webhookSlowLane,
  };
};
