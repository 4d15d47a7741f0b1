import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { anyIn, FIVE_MINUTES, type AddAlarm } from './alarm-conditions';
import { RUNBOOK_SECTIONS, type RunbookSection } from './runbook-sections';
import { serviceMetric } from './service-metrics';

export interface QueueAlarmSources {
  /** Every dead-letter queue, by the name its alarm carries. */
  deadLetters: Record<string, sqs.IQueue>;
  deliveries: sqs.IQueue;
  resets: sqs.IQueue;
  webhookEvents: sqs.IQueue;
  /** The table stream's reader, whose iterator age is how far LimitChanged events lag. */
  historyEvents: lambda.IFunction;
  stageName: string;
}

/** How long work may wait: delivery events and webhook events five minutes, a reset past its hourly flush. */
export const AGE_THRESHOLDS_SECONDS = {
  deliveryEvents: 300,
  queuedResets: 4500,
  webhookEvents: 300,
  stream: 300,
} as const;

/**
 * How far `history-events` is behind the table's stream, in milliseconds. The iterator age is written only when the
 * trigger invokes the function, so an idle stream and a stopped trigger both write nothing; a five-minute period in
 * which the recorder wrote counters marked near a cap (every one a stream record the trigger passes on) and the
 * function was not invoked reads as a day behind, so that a stopped trigger pages while an idle one does not.
 */
export const streamLag = (historyEvents: lambda.IFunction, stageName: string): cloudwatch.MathExpression =>
  new cloudwatch.MathExpression({
    expression: 'IF(FILL(nearCapWrites, 0) > 0 AND FILL(invocations, 0) == 0, 86400000, FILL(age, 0))',
    usingMetrics: {
      age: historyEvents.metric('IteratorAge', { period: FIVE_MINUTES, statistic: 'Maximum' }),
      invocations: historyEvents.metricInvocations({ period: FIVE_MINUTES, statistic: 'Sum' }),
      nearCapWrites: serviceMetric(stageName, 'NearCapWrites', FIVE_MINUTES),
    },
    label: 'stream lag (ms)',
    period: FIVE_MINUTES,
  });

/**
 * Messages new in a dead-letter queue in five minutes: those sent to it (the recorder's own dead letters, Lambda's
 * on-failure records) and those SQS moved there by redrive, which `NumberOfMessagesSent` does not count, seen as a
 * rise of the visible messages (an idle queue's missing points read as 0). It falls back to 0 once nothing new
 * comes, so the alarm returns to OK with messages still waiting, and the next incident pages again.
 */
export const deadLetterArrivals = (queue: sqs.IQueue): cloudwatch.MathExpression =>
  new cloudwatch.MathExpression({
    expression: 'MAX([sent, DIFF(FILL(visible, 0))])',
    usingMetrics: {
      sent: queue.metricNumberOfMessagesSent({ period: Duration.minutes(5), statistic: 'Sum' }),
      visible: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
    },
    label: 'new dead letters',
    period: Duration.minutes(5),
  });

const runbookSectionOf = (queueName: string): RunbookSection => {
  const section = RUNBOOK_SECTIONS.find((candidate) => candidate === `${queueName.toLowerCase()}arrivals`);
  if (!section) throw new Error(`the dead-letter queue ${queueName} has no runbook section (RUNBOOK_SECTIONS)`);
  return section;
};

/**
 * Dead letters arriving, and work waiting too long: delivery events, resets, webhook events, the table stream. A
 * queue's age is written while anything reads or sends to it, and each queue is read by its trigger or the hourly
 * flush: no age at all means nothing has read it for hours, which pages too.
 */
export const queueAlarms = (add: AddAlarm, sources: QueueAlarmSources): void => {
  for (const [name, queue] of Object.entries(sources.deadLetters))
    add(
      `${name}Arrivals`,
      deadLetterArrivals(queue),
      // each queue's own procedure: what may replay its messages differs (docs/exactly-once.md)
      { section: runbookSectionOf(name), summary: `New messages arrived in the dead-letter queue ${name}` },
      { ...anyIn(2), datapointsToAlarm: 1 },
    );
  const oldest: [string, sqs.IQueue, number, RunbookSection, string][] = [
    [
      'DeliveryEventsAge',
      sources.deliveries,
      AGE_THRESHOLDS_SECONDS.deliveryEvents,
      'deliveryeventsage',
      'Delivery events wait more than 5 minutes, or nothing reads the queue',
    ],
    [
      'QueuedResetsAge',
      sources.resets,
      AGE_THRESHOLDS_SECONDS.queuedResets,
      'queuedresetsage',
      'A reset waits more than 75 minutes, or no flush reads the queue',
    ],
    [
      'WebhookEventsAge',
      sources.webhookEvents,
      AGE_THRESHOLDS_SECONDS.webhookEvents,
      'webhookeventsage',
      'LimitReached and LimitChanged wait more than 5 minutes for their webhooks, or nothing reads the queue',
    ],
  ];
  for (const [id, queue, seconds, section, summary] of oldest)
    add(
      id,
      queue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      { section, summary },
      { threshold: seconds, evaluationPeriods: 2, treatMissingData: cloudwatch.TreatMissingData.BREACHING },
    );
  add(
    'HistoryEventsAge',
    streamLag(sources.historyEvents, sources.stageName),
    {
      section: 'historyeventsage',
      summary: 'LimitChanged events lag the change history by more than 5 minutes, or the stream trigger stopped',
    },
    {
      threshold: AGE_THRESHOLDS_SECONDS.stream * 1000,
      evaluationPeriods: 2,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    },
  );
};
