import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { ExactNumber } from '../../../shared/domain/delivery/exact-units';
import type { LimitReached } from '../../../shared/domain/delivery/limit-reached';
import { EventBridgePublisher } from '../../../shared/adapters/eventbridge/eventbridge-publisher';
import { SesMailer } from '../../../shared/adapters/ses/ses-mailer';
import { SqsDeadLetters } from '../../../shared/adapters/sqs/sqs-dead-letters';
import { SqsResetQueue } from '../../../shared/adapters/sqs/sqs-reset-queue';
import { SqsResetSource } from '../../../shared/adapters/sqs/sqs-reset-source';

const sqs = mockClient(SQSClient);
const events = mockClient(EventBridgeClient);
const ses = mockClient(SESv2Client);
afterEach(() => {
  sqs.reset();
  events.reset();
  ses.reset();
});

const reset = {
  entityType: 'CAMPAIGN' as const,
  entityId: 100,
  limitId: 1,
  counters: ['ALL'],
  requestedAt: '2026-11-22T10:00:00.000Z',
  requestedBy: 1,
};

describe('SQS adapters', () => {
  it('queues a reset as one JSON message', async () => {
    sqs.on(SendMessageCommand).resolves({});
    await new SqsResetQueue(new SQSClient({}), 'https://queue/resets').enqueue(reset);
    expect(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input).toEqual({
      QueueUrl: 'https://queue/resets',
      MessageBody: JSON.stringify(reset),
    });
  });

  it('receives resets, marking bodies that are not resets, and acknowledges in batches of ten', async () => {
    sqs.on(ReceiveMessageCommand).resolves({
      Messages: [
        { ReceiptHandle: 'r1', Body: JSON.stringify(reset) },
        { ReceiptHandle: 'r2', Body: 'garbage' },
      ],
    });
    sqs.on(DeleteMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const source = new SqsResetSource(new SQSClient({}), 'https://queue/resets');
    expect(await source.receive(25)).toEqual([
      { receipt: 'r1', request: reset },
      { receipt: 'r2', request: undefined },
    ]);
    expect(sqs.commandCalls(ReceiveMessageCommand)[0]!.args[0].input).toMatchObject({
      MaxNumberOfMessages: 10,
      // long polling: an empty answer means an empty queue, not one server with nothing
      WaitTimeSeconds: expect.any(Number),
    });
    expect(sqs.commandCalls(ReceiveMessageCommand)[0]!.args[0].input.WaitTimeSeconds).toBeGreaterThan(0);
    await source.acknowledge(Array.from({ length: 12 }, (_, i) => `r${i}`));
    const deletes = sqs.commandCalls(DeleteMessageBatchCommand).map((call) => call.args[0].input.Entries!.length);
    expect(deletes).toEqual([10, 2]);
  });

  it('sends a dead letter with its reason as an attribute', async () => {
    sqs.on(SendMessageCommand).resolves({});
    await new SqsDeadLetters(new SQSClient({}), 'https://queue/dlq').send('{"kind":"x"}', 'kind: invalid');
    expect(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input).toMatchObject({
      QueueUrl: 'https://queue/dlq',
      MessageBody: '{"kind":"x"}',
      MessageAttributes: { reason: { DataType: 'String', StringValue: 'kind: invalid' } },
    });
  });

  it('sends what a replay needs as a details attribute', async () => {
    sqs.on(SendMessageCommand).resolves({});
    const details = { messageId: 'm1', group: 'g', sequence: '7', sentAt: 1, targets: ['CAMPAIGN#1'], requests: [{}] };
    await new SqsDeadLetters(new SQSClient({}), 'https://queue/dlq').send('{}', 'refused', details);
    const attributes = sqs.commandCalls(SendMessageCommand).at(-1)!.args[0].input.MessageAttributes!;
    expect(JSON.parse(attributes.details!.StringValue!)).toEqual(details);
  });

  it('gives a dead letter to a FIFO queue a message group and a deduplication id', async () => {
    sqs.on(SendMessageCommand).resolves({});
    await new SqsDeadLetters(new SQSClient({}), 'https://queue/dlq.fifo').send('{"kind":"x"}', 'kind: invalid');
    expect(sqs.commandCalls(SendMessageCommand).at(-1)!.args[0].input).toMatchObject({
      MessageGroupId: 'dead-letters',
      MessageDeduplicationId: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });
});

describe('EventBridge publisher', () => {
  const reached = (i: number): LimitReached => ({
    id: `CAMPAIGN#${i}/dailyClicksLimit=1/D#2026-11-22`,
    entity: `CAMPAIGN#${i}`,
    entityType: 'CAMPAIGN',
    entityId: i,
    cap: 'dailyClicksLimit',
    capValue: 1,
    counter: new ExactNumber('1'),
    bucket: 'D#2026-11-22',
    at: '',
  });

  it('publishes LimitReached events ten per call on the configured bus', async () => {
    events.on(PutEventsCommand).resolves({ FailedEntryCount: 0 });
    await new EventBridgePublisher(new EventBridgeClient({}), 'limits-bus').publishLimitReached(
      Array.from({ length: 11 }, (_, i) => reached(i)),
    );
    const calls = events.commandCalls(PutEventsCommand);
    expect(calls.map((call) => call.args[0].input.Entries!.length)).toEqual([10, 1]);
    expect(calls[0]!.args[0].input.Entries![0]).toMatchObject({
      EventBusName: 'limits-bus',
      Source: 'delivery-limits',
      DetailType: 'LimitReached',
    });
    // counters travel as exact JSON numbers
    expect(JSON.parse(calls[0]!.args[0].input.Entries![0]!.Detail!)).toMatchObject({
      counter: 1,
      bucket: 'D#2026-11-22',
    });
  });

  it('fails when EventBridge refuses entries', async () => {
    events.on(PutEventsCommand).resolves({ FailedEntryCount: 1 });
    await expect(
      new EventBridgePublisher(new EventBridgeClient({}), 'b').publishLimitReached([reached(1)]),
    ).rejects.toThrow('refused');
  });
});

describe('SES mailer', () => {
  it('sends a plain-text mail from the configured sender', async () => {
    ses.on(SendEmailCommand).resolves({});
    await new SesMailer(new SESv2Client({}), 'no-reply@limits.example').send({
      to: 'a@example.com',
      subject: 'S',
      text: 'T',
    });
    expect(ses.commandCalls(SendEmailCommand)[0]!.args[0].input).toEqual({
      FromEmailAddress: 'no-reply@limits.example',
      Destination: { ToAddresses: ['a@example.com'] },
      Content: { Simple: { Subject: { Data: 'S' }, Body: { Text: { Data: 'T' } } } },
    });
  });
});
