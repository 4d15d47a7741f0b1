import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { corsPolicyOf, type CorsPolicy } from '../http/cors';
import type { Clock } from '../ports/clock';
import type { EventPublisher } from '../ports/event-publisher';
import { EventBridgePublisher } from '../adapters/eventbridge/eventbridge-publisher';
import type { ResetQueue, ResetSource } from '../ports/reset-queue';
import type { Mailer } from '../ports/mailer';
import { SesMailer } from '../adapters/ses/ses-mailer';
import type { DeadLetterSink } from '../ports/dead-letters';
import { SqsDeadLetters } from '../adapters/sqs/sqs-dead-letters';
import { SqsResetQueue } from '../adapters/sqs/sqs-reset-queue';
import { SqsResetSource } from '../adapters/sqs/sqs-reset-source';
import { createDynamoDbClient } from '../adapters/dynamodb/dynamodb-client';
import { lambdaClient } from '../adapters/sdk-client-options';
import { DEFAULT_TABLE_NAME } from '../table/table-definition';
import { TableStore } from '../adapters/dynamodb/table-store';
import { DynamoDbWebhookStore } from '../adapters/dynamodb/webhook-store';
import type { WebhookSubscriptions } from '../ports/webhook-subscriptions';
import type { TransactItem } from '../adapters/dynamodb/attribute-values';

export interface ServiceConfig {
  /** Base URL of the UI; password reset links point there. */
  appBaseUrl: string;
  /** forgot.do's answer floor, `FORGOT_RESPONSE_FLOOR_MS` when absent: never read from the environment. */
  forgotResponseFloorMs?: number;
  /** Whether a webhook may be delivered over plain HTTP to this machine (the local server only, never a request). */
  loopbackWebhooks?: boolean;
}

/**
 * The ports functions are built from. The local server builds all of them; a Lambda function builds only those
 * it uses, one factory each, so that its bundle carries no SDK client it does not call.
 */
export interface Dependencies {
  store: TableStore;
  clock: Clock;
  mailer: Mailer;
  resetQueue: ResetQueue;
  events: EventPublisher;
  deadLetters: DeadLetterSink;
  webhooks: WebhookSubscriptions<TransactItem>;
  config: ServiceConfig;
  cors: CorsPolicy;
}

export type Ports<K extends keyof Dependencies> = Pick<Dependencies, K>;

type Environment = NodeJS.ProcessEnv;

export const storeFromEnvironment = (env: Environment = process.env): TableStore =>
  new TableStore(
    createDynamoDbClient({ endpoint: env.DYNAMODB_ENDPOINT, cacheMiddleware: true }),
    env.TABLE_NAME ?? DEFAULT_TABLE_NAME,
  );

/** Webhook subscriptions, in the function's table through its client: pass the function's store to share both. */
export const webhooksFromEnvironment = (
  store: TableStore = storeFromEnvironment(),
): WebhookSubscriptions<TransactItem> => new DynamoDbWebhookStore(store);

export const mailerFromEnvironment = (env: Environment = process.env): Mailer =>
  new SesMailer(lambdaClient(SESv2Client), env.MAIL_FROM ?? 'no-reply@example.invalid');

export const resetQueueFromEnvironment = (env: { RESET_QUEUE_URL: string }): ResetQueue =>
  new SqsResetQueue(lambdaClient(SQSClient), env.RESET_QUEUE_URL);

export const resetSourceFromEnvironment = (env: { RESET_QUEUE_URL: string }): ResetSource =>
  new SqsResetSource(lambdaClient(SQSClient), env.RESET_QUEUE_URL);

export const eventsFromEnvironment = (env: Environment = process.env): EventPublisher =>
  new EventBridgePublisher(lambdaClient(EventBridgeClient), env.EVENT_BUS_NAME ?? 'default');

/**
 * A dead-letter queue whose SQS client is built when it is first used: most containers never dead-letter anything,
 * and building the client at load cost every cold start of the recorder some 2 ms (bench/README.md, "Cold start").
 */
class DeadLetterQueue implements DeadLetterSink {
  private built?: { client: SQSClient; sink: SqsDeadLetters };

  constructor(private readonly queueUrl: string) {}

  get client(): SQSClient {
    return this.adapter().client;
  }

  send(...message: Parameters<DeadLetterSink['send']>): Promise<void> {
    return this.adapter().sink.send(...message);
  }

  private adapter() {
    if (!this.built) {
      const client = lambdaClient(SQSClient);
      this.built = { client, sink: new SqsDeadLetters(client, this.queueUrl) };
    }
    return this.built;
  }
}

export const deadLettersFromEnvironment = (env: { DELIVERY_DLQ_URL: string }): DeadLetterSink =>
  new DeadLetterQueue(env.DELIVERY_DLQ_URL);

/** Where the table stream's consumer sends the records it cannot decode or judge (the trigger's on-failure queue). */
export const streamDeadLettersFromEnvironment = (env: { HISTORY_DLQ_URL: string }): DeadLetterSink =>
  new DeadLetterQueue(env.HISTORY_DLQ_URL);

export const corsFromEnvironment = (env: Environment = process.env): CorsPolicy => corsPolicyOf(env.CORS_ORIGINS);

export const configFromEnvironment = (env: Environment = process.env): ServiceConfig => ({
  appBaseUrl: env.APP_BASE_URL ?? 'https://example.invalid',
});
