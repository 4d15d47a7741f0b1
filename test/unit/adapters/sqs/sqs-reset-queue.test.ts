import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { SqsResetQueue } from '../../../../shared/adapters/sqs/sqs-reset-queue';

const sqs = mockClient(SQSClient);
afterEach(() => sqs.reset());

const reset = {
  entityType: 'CAMPAIGN' as const,
  entityId: 100,
  limitId: 1,
  counters: ['ALL'],
  requestedAt: '2026-11-22T10:00:00.000Z',
  requestedBy: 1,
};

describe('the SQS reset queue', () => {
  it('queues a reset as one JSON message', async () => {
    sqs.on(SendMessageCommand).resolves({});
    await new SqsResetQueue(new SQSClient({}), 'https://queue/resets').enqueue(reset);
    expect(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input).toEqual({
      QueueUrl: 'https://queue/resets',
      MessageBody: JSON.stringify(reset),
    });
  });
});
