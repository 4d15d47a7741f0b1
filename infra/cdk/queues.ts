import { Duration, Validations, type Stack } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { STREAM_TRIGGER } from '../../shared/table/stream-trigger';

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
}

const QUEUE_BASICS = {
  encryption: sqs.QueueEncryption.SQS_MANAGED,
  enforceSSL: true,
  retentionPeriod: Duration.days(14),
};

const queueWithDeadLetters = (
  stack: Stack,
  name: string,
  visibilityTimeout: Duration,
  fifo = false,
): QueueWithDeadLetters => {
  const ordering = fifo ? { fifo: true, contentBasedDeduplication: false } : {};
  const deadLetters = new sqs.Queue(stack, `${name}Dlq`, { ...QUEUE_BASICS, ...ordering });
  // spelt out in this order: the template's CDK metadata records the order of a construct's properties
  const main = new sqs.Queue(stack, name, {
    encryption: QUEUE_BASICS.encryption,
    enforceSSL: QUEUE_BASICS.enforceSSL,
    visibilityTimeout,
    retentionPeriod: QUEUE_BASICS.retentionPeriod,
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

/** The queued resets, the delivery events, the history trigger's and the hourly rule's dead letters. */
export const buildQueues = (stack: Stack): ServiceQueues => {
  const resets = queueWithDeadLetters(stack, 'QueuedResets', Duration.minutes(6));
  // FIFO: each message has its place in its message group, which counter items record to apply it exactly once.
  // Visibility: six times the recorder's timeout, as AWS advises for event source mappings.
  const deliveries = queueWithDeadLetters(stack, 'DeliveryEvents', Duration.minutes(6), true);
  const historyDeadLetters = new sqs.Queue(stack, STREAM_TRIGGER.onFailure, QUEUE_BASICS);
  const resetRuleDeadLetters = new sqs.Queue(stack, 'HourlyResetFlushDlq', QUEUE_BASICS);
  for (const queue of [historyDeadLetters, resetRuleDeadLetters])
    Validations.of(queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is an on-failure destination (a trigger or a rule target): it is itself where failures go.',
    });
  return { resets, deliveries, historyDeadLetters, resetRuleDeadLetters };
};
