import type { UnexercisedGrant } from './request-check';

/** A resource of the template by its construct id (the logical id is the id and a hash of the path). */
const queue = (id: string) => new RegExp(`:${id}[0-9A-F]{8}$`);

/**
 * Grants no request of the tests can use, each with its reason: what AWS itself sends with a function's role, which
 * the local server does not emulate by requests. Keep it short: a grant not listed here must be used by a test.
 */
export const UNEXERCISED_GRANTS: readonly UnexercisedGrant[] = [
  {
    functions: 'every',
    resource: /:log-group:/,
    actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
    reason: 'Lambda writes the function log lines to its log group with its role; locally they go to the terminal.',
  },
  {
    functions: ['delivery-recorder'],
    resource: queue('DeliveryEvents'),
    actions: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'],
    reason:
      "Lambda's event source mapping polls delivery-events with the recorder's role; locally POST /_local/delivery hands the batch to the function.",
  },
  {
    functions: ['webhook-dispatcher'],
    resource: /:(WebhookEvents|WebhookDeliveries|WebhookSlowLane)[0-9A-F]{8}$/,
    actions: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'],
    reason:
      "Lambda's event source mappings poll the webhook events, deliveries and slow-lane queues with the dispatcher's role; locally the server's in-process queues hand the messages over.",
  },
  {
    functions: ['history-events'],
    resource: /^\*$|\/stream\//,
    actions: ['dynamodb:ListStreams', 'dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
    reason:
      "Lambda's event source mapping reads the table stream with the function's role; locally the server reads DynamoDB Local's stream itself.",
  },
];
