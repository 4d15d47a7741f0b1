import { describe, expect, it } from 'vitest';
import { actionsOf, roleOf, statementsOf, synthesizedTemplate, type Resource } from './template';

const synthesized = synthesizedTemplate();
const { ofType, resources } = synthesized;

const queueId = (prefix: string) => ofType('AWS::SQS::Queue').find(([id]) => id.startsWith(prefix))![0];
const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });

const streamMapping = (): Resource =>
  ofType('AWS::Lambda::EventSourceMapping').find(([, candidate]) =>
    JSON.stringify(candidate.Properties.EventSourceArn).includes('StreamArn'),
  )![1];

describe('the table stream trigger', () => {
  it('retries a transient failure 20 times at most, and gives a record up at 6 hours, 18 before the stream drops it', () => {
    expect(streamMapping().Properties).toMatchObject({
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 1,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 20,
      MaximumRecordAgeInSeconds: 6 * 3600,
      DestinationConfig: { OnFailure: { Destination: arnOf(queueId('HistoryEventsDlq')) } },
    });
  });

  it('lets history-events send what it cannot decode to that queue itself, and tells it where', () => {
    const dlq = queueId('HistoryEventsDlq');
    const sends = statementsOf(synthesized, roleOf(synthesized, 'history-events')).filter((statement) =>
      actionsOf(statement).includes('sqs:SendMessage'),
    );
    expect(sends.map((statement) => statement.Resource)).toEqual([arnOf(dlq)]);
    const [, fn] = ofType('AWS::Lambda::Function').find(([id]) => id.startsWith('historyeventsFunction'))!;
    const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables.HISTORY_DLQ_URL).toEqual({ Ref: dlq });
  });
});

describe("the hourly reset rule's target", () => {
  const [, rule] = ofType('AWS::Events::Rule').find(
    ([, candidate]) => candidate.Properties.ScheduleExpression === 'rate(1 hour)',
  )!;
  const target = (rule.Properties.Targets as Record<string, unknown>[])[0]!;
  const dlq = queueId('HourlyResetFlushDlq');

  it('puts an invocation it could not make in a dead-letter queue, within the hour', () => {
    expect(target).toMatchObject({
      DeadLetterConfig: { Arn: arnOf(dlq) },
      RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 },
    });
  });

  it('has an encrypted dead-letter queue that takes SSL only, and only from the rule', () => {
    expect(resources[dlq]!.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 1_209_600 });
    const [, policy] = ofType('AWS::SQS::QueuePolicy').find(([, candidate]) =>
      (candidate.Properties.Queues as unknown[]).some((queue) => JSON.stringify(queue).includes(dlq)),
    )!;
    const statements = (policy.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    const allowed = statements.filter((statement) => statement.Effect === 'Allow');
    expect(allowed).toEqual([
      expect.objectContaining({
        Action: 'sqs:SendMessage',
        Principal: { Service: 'events.amazonaws.com' },
        Condition: { ArnEquals: { 'aws:SourceArn': expect.anything() } },
      }),
    ]);
  });

  it('pages when anything arrives in it, linking the runbook', () => {
    const alarm = ofType('AWS::CloudWatch::Alarm').find(([id]) => id.startsWith('HourlyResetFlushDlqArrivals'));
    expect(alarm).toBeDefined();
    expect(JSON.stringify(alarm![1].Properties.AlarmDescription)).toContain('#hourlyresetflushdlqarrivals');
    expect(JSON.stringify(alarm![1].Properties.Metrics)).toContain(dlq);
    expect(alarm![1].Properties.AlarmActions).toHaveLength(1);
  });
});
