import {
  ChangeMessageVisibilityBatchCommand,
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { SqsWebhookDeliveries } from '../../../../shared/adapters/sqs/sqs-webhook-deliveries';
import { HttpsWebhookEndpoint } from '../../../../shared/adapters/webhooks/https-endpoint';
import { ExactNumber } from '../../../../shared/domain/delivery/exact-units';
import { deliveryOfMessage } from '../../../../shared/domain/webhooks/delivery-message';
import type { WebhookDelivery } from '../../../../shared/domain/webhooks/webhook-event';
import { replayWebhookDeadLetters } from '../../../../scripts/webhook-replay-queue';

const sqs = mockClient(SQSClient);
afterEach(() => sqs.reset());

const delivery = (n: number): WebhookDelivery => ({
  subscriptionId: `whk_${n}`,
  userId: 7,
  event: {
    kind: 'limit.reached',
    event: {
      id: `CAMPAIGN#1/dailyBudgetLimit=99999999999.999/D#2026-11-25`,
      entity: 'CAMPAIGN#1',
      entityType: 'CAMPAIGN',
      entityId: 1,
      cap: 'dailyBudgetLimit',
      capValue: 9_999_999_999.999,
      counter: new ExactNumber('9999999999999.999'),
      bucket: 'D#2026-11-25',
      at: '2026-11-25T10:00:00.000Z',
    },
  },
});

describe('the SQS deliveries queue', () => {
  it('sends deliveries in batches of 10 with their counters exact, and hides a message for the next step', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    const queue = new SqsWebhookDeliveries(new SQSClient({}), 'https://sqs.test/deliveries');
    await queue.send(Array.from({ length: 12 }, (_, index) => delivery(index)));
    const batches = sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input.Entries!);
    expect(batches.map((entries) => entries.length)).toEqual([10, 2]);
    const first = deliveryOfMessage(batches[0]![0]!.MessageBody!);
    expect(first.event.kind === 'limit.reached' && first.event.event.counter.text).toBe('9999999999999.999');
    await queue.retryAfter('receipt-1', 300);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)[0]!.args[0].input).toEqual({
      QueueUrl: 'https://sqs.test/deliveries',
      ReceiptHandle: 'receipt-1',
      VisibilityTimeout: 300,
    });
  });

  it('fails the fan-out when SQS refuses part of a batch, so that the event is retried', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [{ Id: '0', SenderFault: false, Code: 'InternalError' }] });
    const queue = new SqsWebhookDeliveries(new SQSClient({}), 'https://sqs.test/deliveries');
    await expect(queue.send([delivery(1)])).rejects.toThrow(/refused 1/);
  });
});

describe('where a webhook may go on AWS', () => {
  it('calls no plain-http URL and no literal private address, before any connection', async () => {
    const endpoint = new HttpsWebhookEndpoint({ anyUrl: false, timeoutMs: 1000 });
    const post = (url: string) => endpoint.post({ url, headers: {}, body: '{}' });
    expect(await post('http://partner.example/hook')).toEqual({ ok: false, reason: 'only https URLs are called' });
    // a RegExp inside toMatchObject matches any value: the reason is compared whole
    const refused = { ok: false, reason: 'the address is one webhooks may not reach' };
    expect(await post('https://169.254.169.254/latest')).toEqual(refused);
    expect(await post('https://[::1]:8443/hook')).toEqual(refused);
    // judged as create.do judges a URL (test/unit/domain/webhooks/public-address.test.ts): shared, multicast and
    // reserved IPv4, and the IPv6 forms that carry an IPv4 address
    for (const host of ['100.64.0.1', '224.0.0.1', '240.0.0.1', '255.255.255.255', '[::7f00:1]', '[::ffff:0:7f00:1]'])
      expect(await post(`https://${host}:8443/hook`), host).toEqual(refused);
    for (const host of ['[2002:7f00:1::1]', '[64:ff9b::7f00:1]', '[64:ff9b:1::a00:1]'])
      expect(await post(`https://${host}:8443/hook`), host).toEqual(refused);
  });

  it('refuses a host name that resolves to a loopback address', async () => {
    const endpoint = new HttpsWebhookEndpoint({ anyUrl: false, timeoutMs: 2000 });
    expect(await endpoint.post({ url: 'https://localhost:1/hook', headers: {}, body: '{}' })).toMatchObject({
      ok: false,
      reason: 'localhost resolves to an address webhooks may not reach',
    });
  });
});

describe('npm run webhooks -- replay on AWS', () => {
  const message = (id: string) => ({ MessageId: id, ReceiptHandle: `r-${id}`, Body: `{"subscriptionId":"${id}"}` });

  it('moves each dead letter to the deliveries queue unchanged, deleting only those sent', async () => {
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({ Messages: [message('a'), message('b')] })
      .resolves({ Messages: [] });
    sqs.on(SendMessageBatchCommand).resolves({
      Successful: [{ Id: '1', MessageId: 'n1', MD5OfMessageBody: '' }],
      Failed: [{ Id: '0', SenderFault: false, Code: 'InternalError' }],
    });
    sqs.on(DeleteMessageBatchCommand).resolves({ Successful: [{ Id: '0' }] });
    const run = await replayWebhookDeadLetters(new SQSClient({}), {
      from: 'https://sqs.test/dlq',
      to: 'https://sqs.test/q',
    });
    expect(run).toEqual({ replayed: 1, notDeleted: 0, failed: 1 });
    const sent = sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input;
    expect(sent.QueueUrl).toBe('https://sqs.test/q');
    expect(sent.Entries!.map((entry) => entry.MessageBody)).toEqual([message('a').Body, message('b').Body]);
    expect(sqs.commandCalls(DeleteMessageBatchCommand)[0]!.args[0].input.Entries).toEqual([
      { Id: '0', ReceiptHandle: 'r-b' },
    ]);
  });

  it('moves nothing on a dry run, and makes what it counted visible again at once', async () => {
    const letters = Array.from({ length: 12 }, (_, index) => message(`m${index}`));
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({ Messages: letters.slice(0, 10) })
      .resolvesOnce({ Messages: letters.slice(10) })
      .resolves({ Messages: [] });
    sqs.on(ChangeMessageVisibilityBatchCommand).resolves({ Successful: [], Failed: [] });
    const run = await replayWebhookDeadLetters(new SQSClient({}), {
      from: 'https://sqs.test/dlq',
      to: 'https://sqs.test/q',
      dryRun: true,
    });
    expect(run.replayed).toBe(12);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
    expect(sqs.commandCalls(DeleteMessageBatchCommand)).toHaveLength(0);
    const released = sqs.commandCalls(ChangeMessageVisibilityBatchCommand).map((call) => call.args[0].input);
    expect(released.map((input) => input.QueueUrl)).toEqual(['https://sqs.test/dlq', 'https://sqs.test/dlq']);
    expect(released.flatMap((input) => input.Entries!)).toEqual(
      letters.map((letter, index) => ({
        Id: String(index % 10),
        ReceiptHandle: letter.ReceiptHandle,
        VisibilityTimeout: 0,
      })),
    );
  });
});
