import { SQSClient } from '@aws-sdk/client-sqs';
import { lambdaClient } from '../adapters/sdk-client-options';
import { SqsDeadLetters } from '../adapters/sqs/sqs-dead-letters';
import { SqsWebhookDeliveries } from '../adapters/sqs/sqs-webhook-deliveries';
import { HttpsWebhookEndpoint } from '../adapters/webhooks/https-endpoint';
import { WEBHOOK_TIMEOUT_MS } from '../domain/webhooks/retry-schedule';

/** The webhook dispatcher's queues (both lanes and the dead letters) and the HTTPS client it calls subscribers with (public addresses only). */
export const webhookDispatcherPortsFromEnvironment = (env: NodeJS.ProcessEnv = process.env) => {
  const sqs = lambdaClient(SQSClient);
  return {
    deliveries: new SqsWebhookDeliveries(sqs, env.WEBHOOK_DELIVERIES_QUEUE_URL ?? ''),
    slowLane: new SqsWebhookDeliveries(sqs, env.WEBHOOK_SLOW_LANE_QUEUE_URL ?? ''),
    deadLetters: new SqsDeadLetters(sqs, env.WEBHOOK_DELIVERIES_DLQ_URL ?? ''),
    endpoint: new HttpsWebhookEndpoint({ anyUrl: false, timeoutMs: WEBHOOK_TIMEOUT_MS }),
  };
};
