import { deliveryBatchesPerSecond, ON_DEMAND_START, warmThroughput } from './capacity';
import { DELIVERY_QUEUE } from './delivery-settings';
import type { DeliveryLimitsStackProps } from './stack-props';

/** Lambda keeps this much of an account's concurrency unreserved: reservations must leave it. */
export const UNRESERVED_MINIMUM = 100;

export interface QuotaLine {
  service: string;
  /** The quota's name in Service Quotas (or the console that sets it). */
  quota: string;
  /** AWS's default in a new account. */
  awsDefault: string;
  /** What this configuration needs. */
  needed: number;
  note: string;
}

/** Password-reset mails: a trickle, but SES's sandbox refuses unverified recipients. */
const SES_SENDING: QuotaLine = {
  service: 'SES',
  quota: 'Sending quota (production access)',
  awsDefault: 'sandbox: 1 mail/s, verified recipients only',
  needed: 1,
  note: 'password-reset mails; leave the sandbox before the first deploy',
};

type Sizing = Pick<
  DeliveryLimitsStackProps,
  'load' | 'stageThrottle' | 'deliveryMaxConcurrency' | 'reservedConcurrency' | 'defaultThrottle'
>;

/** Every account quota the configured load needs, from the same settings the stack is built from. */
export const quotaChecklist = (settings: Sizing, plannedConcurrency: number): QuotaLine[] => {
  const { load } = settings;
  const warm = warmThroughput(load);
  const messagesPerSecond = Math.ceil(load.deliveryEventsPerSecond / load.eventsPerMessage);
  return [
    {
      service: 'DynamoDB',
      quota: 'Table-level write throughput limit',
      awsDefault: '40,000',
      needed: warm.writeUnitsPerSecond,
      note: `the table's warm throughput: ${deliveryBatchesPerSecond(load)} delivery batches/s × ${load.writeUnitsPerBatch} units, plus ${load.apiRequestsPerSecond} API writes/s`,
    },
    {
      service: 'DynamoDB',
      quota: 'Account-level write throughput limit',
      awsDefault: '80,000',
      needed: warm.writeUnitsPerSecond,
      note: "this table's, plus every other table's in the account and region",
    },
    {
      service: 'DynamoDB',
      quota: 'Table-level read throughput limit',
      awsDefault: '40,000',
      needed: warm.readUnitsPerSecond,
      note: `3 units a warm API read; never warmed below a new table's ${ON_DEMAND_START.readUnitsPerSecond.toLocaleString('en-US')}`,
    },
    {
      service: 'Lambda',
      quota: 'Concurrent executions',
      awsDefault: '1,000',
      needed: plannedConcurrency + UNRESERVED_MINIMUM,
      note: `the functions' planned concurrency (${settings.deliveryMaxConcurrency} recorders among it) and the ${UNRESERVED_MINIMUM} Lambda keeps unreserved`,
    },
    {
      service: 'API Gateway',
      quota: 'Throttle rate (requests/s, account and region)',
      awsDefault: '10,000',
      needed: settings.stageThrottle.rateLimit,
      note: `the stage's throttle (${settings.stageThrottle.rateLimit}/s, burst ${settings.stageThrottle.burstLimit}); the load is ${load.apiRequestsPerSecond}/s`,
    },
    {
      service: 'SQS',
      quota: 'FIFO messages/s per queue, high-throughput mode (send)',
      awsDefault: 'by region: 70,000 in the largest, 9,000–19,000 elsewhere',
      needed: messagesPerSecond,
      note: `${load.eventsPerMessage} events a message; sent in batches of ${DELIVERY_QUEUE.batchSize}`,
    },
    {
      service: 'EventBridge',
      quota: 'PutEvents throttle limit in transactions per second',
      awsDefault: 'by region: 10,000 in the largest, 400–2,400 elsewhere',
      needed: load.apiRequestsPerSecond,
      note: 'at most one LimitChanged event per API request that writes; LimitReached only on crossing a cap',
    },
    SES_SENDING,
  ];
};

export const quotaTable = (lines: QuotaLine[]): string =>
  [
    '| service | quota | AWS default | this configuration needs | from |',
    '|---|---|---|---|---|',
    ...lines.map(
      (line) =>
        `| ${line.service} | ${line.quota} | ${line.awsDefault} | ${line.needed.toLocaleString('en-US')} | ${line.note} |`,
    ),
  ].join('\n');
