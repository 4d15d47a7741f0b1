import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { systemClock, type Clock } from '../clock';
import type { EventPublisher } from '../events/event-publisher';
import { EventBridgePublisher } from '../events/eventbridge-publisher';
import type { ResetQueue } from '../limits/reset-queue';
import type { Mailer } from '../mail/mailer';
import { SesMailer } from '../mail/ses-mailer';
import type { DeadLetterSink } from '../queue/dead-letters';
import { SqsDeadLetters } from '../queue/sqs-dead-letters';
import { SqsResetQueue } from '../queue/sqs-reset-queue';
import { createDocumentClient, createDynamoDbClient } from '../table/document-client';
import { DEFAULT_TABLE_NAME } from '../table/table-definition';
import { TableStore } from '../table/table-store';

export interface ServiceConfig {
  /** Base URL of the UI; password reset links point there. */
  appBaseUrl: string;
}

/** The ports every function is built from. Lambda builds them from its environment; the local server builds its own. */
export interface Dependencies {
  store: TableStore;
  clock: Clock;
  mailer: Mailer;
  resetQueue: ResetQueue;
  events: EventPublisher;
  deadLetters: DeadLetterSink;
  config: ServiceConfig;
}

export const dependenciesFromEnvironment = (env: NodeJS.ProcessEnv = process.env): Dependencies => {
  const sqs = new SQSClient({});
  return {
    store: new TableStore(createDocumentClient(createDynamoDbClient({ endpoint: env.DYNAMODB_ENDPOINT })), env.TABLE_NAME ?? DEFAULT_TABLE_NAME),
    clock: systemClock,
    mailer: new SesMailer(new SESv2Client({}), env.MAIL_FROM ?? 'no-reply@example.invalid'),
    resetQueue: new SqsResetQueue(sqs, env.RESET_QUEUE_URL ?? ''),
    events: new EventBridgePublisher(new EventBridgeClient({}), env.EVENT_BUS_NAME ?? 'default'),
    deadLetters: new SqsDeadLetters(sqs, env.DELIVERY_DLQ_URL ?? ''),
    config: { appBaseUrl: env.APP_BASE_URL ?? 'https://example.invalid' },
  };
};
