import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';

export type QueueAction =
  | 'sqs:SendMessage'
  | 'sqs:ReceiveMessage'
  | 'sqs:DeleteMessage'
  | 'sqs:GetQueueAttributes'
  | 'sqs:ChangeMessageVisibility';

/**
 * What Lambda's event source mapping sends to a queue with the function's role while it polls (AWS's managed
 * AWSLambdaSQSQueueExecutionRole holds these three). CDK's `SqsEventSource` grants `GetQueueUrl` and
 * `ChangeMessageVisibility` besides, which nothing sends.
 */
export const QUEUE_POLLER_ACTIONS = ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'] as const;

/**
 * Exactly the SQS requests a function's code (or its queue trigger) sends to a queue (`sqs:DeleteMessage` covers
 * DeleteMessageBatch). CDK's `grantSendMessages` and `grantConsumeMessages` add `GetQueueUrl`,
 * `GetQueueAttributes` and `ChangeMessageVisibility`, which the code never sends: it has the queue's URL from its
 * environment.
 */
export const grantQueueActions = (fn: lambda.IFunction, queue: sqs.IQueue, actions: readonly QueueAction[]): void => {
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: [...actions], resources: [queue.queueArn] }));
};
