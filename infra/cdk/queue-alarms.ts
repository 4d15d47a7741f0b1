import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { anyIn, FIVE_MINUTES, type AddAlarm } from './alarm-conditions';
import { RUNBOOK_SECTIONS, type RunbookSection } from './runbook-sections';

export interface QueueAlarmSources {
  /** Every dead-letter queue, by the name its alarm carries. */
  deadLetters: Record<string, sqs.IQueue>;
  deliveries: sqs.IQueue;
  resets: sqs.IQueue;
  /** The table stream's reader, whose iterator age is how far LimitChanged events lag. */
  historyEvents: lambda.IFunction;
}

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

/** Dead letters arriving, and work waiting too long: delivery events, resets, the table stream. */
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
    ['DeliveryEventsAge', sources.deliveries, 300, 'deliveryeventsage', 'Delivery events wait more than 5 minutes'],
    ['QueuedResetsAge', sources.resets, 4500, 'queuedresetsage', 'A reset waits more than 75 minutes'],
  ];
  for (const [id, queue, seconds, section, summary] of oldest)
    add(
      id,
      queue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      { section, summary },
      { threshold: seconds, evaluationPeriods: 2 },
    );
  add(
    'HistoryEventsAge',
    sources.historyEvents.metric('IteratorAge', { period: FIVE_MINUTES, statistic: 'Maximum' }),
    { section: 'historyeventsage', summary: 'LimitChanged events lag the change history by more than 5 minutes' },
    { threshold: 300_000, evaluationPeriods: 2 },
  );
};
