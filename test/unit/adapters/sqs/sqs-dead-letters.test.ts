import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { SqsDeadLetters } from '../../../../shared/adapters/sqs/sqs-dead-letters';

const sqs = mockClient(SQSClient);
afterEach(() => sqs.reset());

describe('the SQS dead letters', () => {
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
