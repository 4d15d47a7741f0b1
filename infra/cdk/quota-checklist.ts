import { deliveryBatchesPerSecond, ON_DEMAND_START, tableThroughput, warmThroughput } from './capacity';
import { DELIVERY_QUEUE } from './delivery-settings';
import { dispatcherConcurrency, streamConsumerSizing } from './push-path';
import type { DeliveryLimitsStackProps } from './stack-props';

/** Lambda keeps this much of an account's concurrency unreserved: reservations must leave it. */
export const UNRESERVED_MINIMUM = 100;

export interface QuotaLine {
  service: string;
  /** The quota's name in Service Quotas (or the console that sets it). */
  quota: string;
  /** AWS's default in a new account. */
  awsDefault: string;
  /** The default as one number, where one holds in every region: a need above it must be raised first. */
  defaultLimit?: number;
  /** What to do where the default is no single number. */
  otherwise?: string;
  /** What this configuration needs. */
  needed: number;
  note: string;
  /** The context settings that move what is needed. */
  settings: readonly string[];
}

const number = (value: number) => value.toLocaleString('en-US');

/** Password-reset mails: a trickle, but SES's sandbox refuses unverified recipients. */
const SES_SENDING: QuotaLine = {
  service: 'SES',
  quota: 'Sending quota (production access)',
  awsDefault: 'sandbox: 1 mail/s, verified recipients only',
  otherwise: 'leave the sandbox',
  needed: 1,
  note: 'password-reset mails; leave the sandbox before the first deploy',
  settings: [],
};

type Sizing = Pick<
  DeliveryLimitsStackProps,
  'load' | 'stageThrottle' | 'deliveryMaxConcurrency' | 'reservedConcurrency' | 'defaultThrottle'
>;

const LOAD_SETTINGS = ['deliveryEventsPerSecond', 'eventsPerMessage', 'writeUnitsPerBatch', 'apiRequestsPerSecond'];

/** The table's lines: the write units it must carry from its first request, in the table and the account, and reads. */
const tableLines = (load: Sizing['load']): QuotaLine[] => {
  const warm = warmThroughput(load);
  const needed = tableThroughput(load);
  const writes = warm?.writeUnitsPerSecond ?? needed.writeUnitsPerSecond;
  const delivery = `${deliveryBatchesPerSecond(load)} delivery batches/s × ${load.writeUnitsPerBatch} units, plus ${load.apiRequestsPerSecond} API writes/s`;
  return [
    {
      service: 'DynamoDB',
      quota: 'Table-level write throughput limit',
      awsDefault: '40,000',
      defaultLimit: 40_000,
      needed: writes,
      note: warm
        ? `the table's warm throughput: ${delivery}`
        : `${delivery}; within the ${number(ON_DEMAND_START.writeUnitsPerSecond)} a new table serves, so not warmed`,
      settings: LOAD_SETTINGS,
    },
    {
      service: 'DynamoDB',
      quota: 'Account-level write throughput limit',
      awsDefault: '80,000',
      defaultLimit: 80_000,
      needed: writes,
      note: "this table's, plus every other table's in the account and region",
      settings: LOAD_SETTINGS,
    },
    {
      service: 'DynamoDB',
      quota: 'Table-level read throughput limit',
      awsDefault: '40,000',
      defaultLimit: 40_000,
      needed: warm?.readUnitsPerSecond ?? needed.readUnitsPerSecond,
      note: warm
        ? `3 units a warm API read; never warmed below a new table's ${number(ON_DEMAND_START.readUnitsPerSecond)}`
        : `3 units a warm API read; within the ${number(ON_DEMAND_START.readUnitsPerSecond)} a new table serves`,
      settings: ['apiRequestsPerSecond'],
    },
  ];
};

/** Every account quota the configured load needs, from the same settings the stack is built from. */
export const quotaChecklist = (settings: Sizing, plannedConcurrency: number): QuotaLine[] => {
  const { load } = settings;
  const messagesPerSecond = Math.ceil(load.deliveryEventsPerSecond / load.eventsPerMessage);
  return [
    ...tableLines(load),
    {
      service: 'Lambda',
      quota: 'Concurrent executions',
      awsDefault: '1,000',
      defaultLimit: 1_000,
      needed: plannedConcurrency + UNRESERVED_MINIMUM,
      note: `the functions' planned concurrency (${settings.deliveryMaxConcurrency} recorders, ${streamConsumerSizing(load).reservation} stream consumers and ${dispatcherConcurrency(load)} webhook dispatchers among it, the last two sized from the load) and the ${UNRESERVED_MINIMUM} Lambda keeps unreserved`,
      settings: [
        'reservedConcurrency',
        'deliveryMaxConcurrency',
        'recorderReservedConcurrency',
        'deliveryEventsPerSecond',
        'apiRequestsPerSecond',
      ],
    },
    {
      service: 'API Gateway',
      quota: 'Throttle rate (requests/s, account and region)',
      awsDefault: '10,000',
      defaultLimit: 10_000,
      needed: settings.stageThrottle.rateLimit,
      note: `the stage's throttle (${settings.stageThrottle.rateLimit}/s, burst ${settings.stageThrottle.burstLimit}); the load is ${load.apiRequestsPerSecond}/s`,
      settings: ['stageRateLimit', 'apiRequestsPerSecond'],
    },
    {
      service: 'SQS',
      quota: 'FIFO messages/s per queue, high-throughput mode (send)',
      awsDefault: 'by region: 70,000 in the largest, 9,000–19,000 elsewhere',
      otherwise: "compare with the region's",
      needed: messagesPerSecond,
      note: `${load.eventsPerMessage} events a message; sent in batches of ${DELIVERY_QUEUE.batchSize}`,
      settings: ['deliveryEventsPerSecond', 'eventsPerMessage'],
    },
    {
      service: 'EventBridge',
      quota: 'PutEvents throttle limit in transactions per second',
      awsDefault: 'by region: 10,000 in the largest, 400–2,400 elsewhere',
      otherwise: "compare with the region's",
      needed: load.apiRequestsPerSecond,
      note: 'at most one LimitChanged event per API request that writes; LimitReached only on crossing a cap',
      settings: ['apiRequestsPerSecond'],
    },
    SES_SENDING,
  ];
};

/** What a line asks of the operator before the first deploy. */
export const quotaAction = (line: QuotaLine): string =>
  line.defaultLimit === undefined ? line.otherwise! : line.needed > line.defaultLimit ? '**raise it first**' : 'none';

export const quotaTable = (lines: QuotaLine[]): string =>
  [
    '| service | quota | AWS default | this configuration needs | before the first deploy | from | settings that move it |',
    '|---|---|---|---|---|---|---|',
    ...lines.map(
      (line) =>
        `| ${line.service} | ${line.quota} | ${line.awsDefault} | ${number(line.needed)} | ${quotaAction(line)} | ${line.note} | ${line.settings.map((setting) => `\`${setting}\``).join(', ') || '—'} |`,
    ),
  ].join('\n');
