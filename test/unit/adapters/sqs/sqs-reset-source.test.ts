import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { SqsResetSource } from '../../../../shared/adapters/sqs/sqs-reset-source';

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

describe('the SQS reset source', () => {
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
});
