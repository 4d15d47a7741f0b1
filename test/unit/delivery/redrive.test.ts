import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { deadLetterOfSqsMessage } from '../../../shared/adapters/sqs/sqs-dead-letter-reader';
import { replayOfDeadLetter, type DeadLetter, type RedriveOutcome } from '../../../shared/delivery/redrive';
import type { DeadLetterDetails } from '../../../shared/ports/dead-letters';
import { redriveQueue } from '../../../scripts/redrive-queue';

const details = (messageId: string): DeadLetterDetails => ({
  messageId,
  group: 'host-7',
  sequence: '0000000000000000000000000000000000000042',
  sentAt: Date.parse('2026-11-18T10:00:00Z'),
  targets: ['CAMPAIGN#100', 'CAMPAIGN#100|7'],
  requests: [{ UpdateExpression: 'SET #a = :a' }],
});
const BODY = '{"kind":"conversion","bannerId":1000,"actionId":7}';

describe('replayOfDeadLetter', () => {
  it('replays the body at its first receive time, to the items that did not take it, in a group of its own', () => {
    expect(replayOfDeadLetter({ body: BODY, details: details('m-1') })).toEqual({
      messageId: 'm-1',
      body: BODY,
      group: 'redrive:m-1',
      sequence: '1',
      sentAt: Date.parse('2026-11-18T10:00:00Z'),
      replayTo: ['CAMPAIGN#100', 'CAMPAIGN#100|7'],
    });
  });

  it('gives the same message on every run and for a replay dead-lettered again, so its marker skips it', () => {
    const first = replayOfDeadLetter({ body: BODY, details: details('m-1') });
    const again = replayOfDeadLetter({
      body: BODY,
      details: { ...details('m-1'), group: 'redrive:m-1', sequence: '1' },
    });
    expect(again).toEqual(first);
    expect(replayOfDeadLetter({ body: BODY, details: details('m-2') }).group).toBe('redrive:m-2');
  });
});

const sqsMessage = (id: string, letter?: DeadLetterDetails | string): Message => ({
  MessageId: `sqs-${id}`,
  ReceiptHandle: `receipt-${id}`,
  Body: BODY,
  MessageAttributes: {
    reason: { DataType: 'String', StringValue: 'refused' },
    ...(letter !== undefined
      ? {
          details: {
            DataType: 'String',
            StringValue: typeof letter === 'string' ? letter : JSON.stringify(letter),
          },
        }
      : {}),
  },
});

describe('deadLetterOfSqsMessage', () => {
  it('reads the body and the details the dead-letter sink sent', () => {
    expect(deadLetterOfSqsMessage(sqsMessage('a', details('m-1')))).toEqual({ body: BODY, details: details('m-1') });
  });

  it('reads nothing from a dead letter without details, or with details it cannot trust', () => {
    expect(deadLetterOfSqsMessage(sqsMessage('a'))).toBeUndefined();
    expect(deadLetterOfSqsMessage(sqsMessage('a', '{"messageId":'))).toBeUndefined();
    expect(deadLetterOfSqsMessage(sqsMessage('a', { ...details('m-1'), targets: [] }))).toBeUndefined();
  });
});

describe('redriveQueue', () => {
  const sqs = mockClient(SQSClient);
  const QUEUE = 'https://sqs.eu-west-1.amazonaws.com/123456789012/delivery-dlq.fifo';
  const replays: string[][] = [];
  const replayAnswering =
    (outcome: (ids: string[]) => RedriveOutcome) =>
    async (letters: DeadLetter[]): Promise<RedriveOutcome> => {
      const ids = letters.map((letter) => letter.details.messageId);
      replays.push(ids);
      return outcome(ids);
    };
  const deleted = () => sqs.commandCalls(DeleteMessageCommand).map((call) => call.args[0].input.ReceiptHandle);

  beforeEach(() => {
    sqs.reset();
    replays.length = 0;
  });

  it('deletes what was replayed or dead-lettered again, keeps what failed and what it cannot replay', async () => {
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({ Messages: [sqsMessage('a', details('m-a')), sqsMessage('b'), sqsMessage('c', details('m-c'))] })
      .resolvesOnce({ Messages: [sqsMessage('d', details('m-d'))] })
      .resolves({ Messages: [] });
    const run = await redriveQueue(
      new SQSClient({}),
      QUEUE,
      replayAnswering((ids) => ({
        replayed: ids.filter((id) => id === 'm-a' || id === 'm-d'),
        deadLettered: ids.filter((id) => id === 'm-c').map((messageId) => ({ messageId, reason: 'refused' })),
        failed: [],
      })),
    );
    expect(replays).toEqual([['m-a', 'm-c'], ['m-d']]);
    expect(deleted()).toEqual(['receipt-a', 'receipt-c', 'receipt-d']);
    expect(run).toEqual({ replayed: 2, deadLetteredAgain: 1, failed: 0, notReplayable: 1, wouldReplay: [] });
    expect(sqs.commandCalls(ReceiveMessageCommand)[0]!.args[0].input).toMatchObject({
      QueueUrl: QUEUE,
      MessageAttributeNames: ['All'],
    });
  });

  it('leaves a dead letter whose replay did not reach every item in the queue, for a later run', async () => {
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({ Messages: [sqsMessage('a', details('m-a')), sqsMessage('b', details('m-b'))] })
      .resolves({ Messages: [] });
    const run = await redriveQueue(
      new SQSClient({}),
      QUEUE,
      replayAnswering(() => ({ replayed: ['m-a'], deadLettered: [], failed: ['m-b'] })),
    );
    expect(deleted()).toEqual(['receipt-a']);
    expect(run).toMatchObject({ replayed: 1, failed: 1 });
  });

  it('stops when the queue answers only messages it has seen, and a dry run replays and deletes nothing', async () => {
    const again = sqsMessage('a', details('m-a'));
    sqs.on(ReceiveMessageCommand).resolves({ Messages: [again] });
    const run = await redriveQueue(
      new SQSClient({}),
      QUEUE,
      replayAnswering(() => ({ replayed: [], deadLettered: [], failed: [] })),
      true,
    );
    expect(replays).toEqual([]);
    expect(deleted()).toEqual([]);
    expect(sqs.commandCalls(ReceiveMessageCommand)).toHaveLength(2);
    expect(run.wouldReplay).toEqual([{ messageId: 'm-a', targets: ['CAMPAIGN#100', 'CAMPAIGN#100|7'] }]);
  });
});
