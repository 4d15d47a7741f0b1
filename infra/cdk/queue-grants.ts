import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';

export type QueueAction = 'sqs:SendMessage' | 'sqs:ReceiveMessage' | 'sqs:DeleteMessage';

/**
 * Exactly the SQS requests a function's code sends to a queue (`sqs:DeleteMessage` covers DeleteMessageBatch).
 * CDK's `grantSendMessages` and `grantConsumeMessages` add `GetQueueUrl`, `GetQueueAttributes` and
 * `ChangeMessageVisibility`, which the code never sends: it has the queue's URL from its environment.
 */
export const grantQueueActions = (fn: lambda.IFunction, queue: sqs.IQueue, actions: readonly QueueAction[]): void => {
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: [...actions], resources: [queue.queueArn] }));
};
