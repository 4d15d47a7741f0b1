import { Readable } from 'node:stream';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestTaps, type RequestTap } from '../../../infra/local/request-taps';
import { withoutBackOffWaits } from '../../support/sdk-back-off';

const answer = (statusCode: number, body: object) => ({
  response: {
    statusCode,
    headers: { 'content-type': 'application/x-amz-json-1.0' },
    body: Readable.from([Buffer.from(JSON.stringify(body))]),
  },
});

/** A client resolving its middleware once per kind of request, answered without I/O: throttled `throttles` times. */
const cachingClient = (throttles = 0) => {
  let sent = 0;
  const client = new DynamoDBClient({
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    cacheMiddleware: true,
    maxAttempts: 3,
    requestHandler: {
      handle: async () => {
        sent += 1;
        return sent <= throttles
          ? answer(400, { __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException', message: 'slow down' })
          : answer(200, {});
      },
    },
  });
  return { client, attempts: () => sent };
};

const getItem = () => new GetItemCommand({ TableName: 'table', Key: { PK: { S: 'A' }, SK: { S: 'B' } } });

/** A tap that writes its name and the command's name, before and after the rest of the stack. */
const tracing =
  (name: string, trace: string[]): RequestTap =>
  (next, context) =>
  async (args) => {
    trace.push(`${name} ${context.commandName}`);
    const output = await next(args);
    trace.push(`${name} done`);
    return output;
  };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('request taps', () => {
  it('run taps added after a kind of request was first sent, which the cached stack itself ignores', async () => {
    const { client } = cachingClient();
    const taps = new RequestTaps(client);
    await client.send(getItem());
    const trace: string[] = [];
    client.middlewareStack.add(tracing('stack', trace) as never, { step: 'initialize', name: 'late' });
    taps.add(tracing('tap', trace), { step: 'initialize', name: 'probe' });
    await client.send(getItem());
    expect(trace).toEqual(['tap GetItemCommand', 'tap done']);
  });

  it('run in the order added, the first outermost, and stop when removed', async () => {
    const { client } = cachingClient();
    const taps = new RequestTaps(client);
    const trace: string[] = [];
    taps.add(tracing('first', trace), { step: 'initialize', name: 'first' });
    taps.add(tracing('second', trace), { step: 'initialize', name: 'second' });
    await client.send(getItem());
    taps.remove('first');
    await client.send(getItem());
    expect(trace).toEqual([
      'first GetItemCommand',
      'second GetItemCommand',
      'second done',
      'first done',
      'second GetItemCommand',
      'second done',
    ]);
  });

  it('run an initialize tap once per command and a deserialize tap once per attempt of the SDK', async () => {
    withoutBackOffWaits();
    const { client, attempts } = cachingClient(2);
    const taps = new RequestTaps(client);
    const seen = { initialize: 0, deserialize: 0 };
    for (const step of ['initialize', 'deserialize'] as const)
      taps.add(
        (next) => (args) => {
          seen[step] += 1;
          return next(args);
        },
        { step, name: step },
      );
    await client.send(getItem());
    expect(attempts()).toBe(3);
    expect(seen).toEqual({ initialize: 1, deserialize: 3 });
  });

  it('lets a deserialize tap fail an attempt, which the SDK retries', async () => {
    withoutBackOffWaits();
    const { client, attempts } = cachingClient();
    const taps = new RequestTaps(client);
    let calls = 0;
    taps.add(
      (next) => async (args) => {
        calls += 1;
        if (calls === 1)
          throw Object.assign(new Error('throttled'), {
            name: 'ThrottlingException',
            $fault: 'client',
            $metadata: { httpStatusCode: 400 },
          });
        return next(args);
      },
      { step: 'deserialize', name: 'injector' },
    );
    await expect(client.send(getItem())).resolves.toBeDefined();
    expect({ calls, sent: attempts() }).toEqual({ calls: 2, sent: 1 });
  });
});
