import { SQSClient } from '@aws-sdk/client-sqs';
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LAMBDA_CLIENT_OPTIONS } from '../shared/adapters/sdk-client-options';

const SEND_MESSAGE = 'AmazonSQS.SendMessage';

/** SendMessage as SQS answers it (JSON protocol): a message id and the body's MD5, which the SDK checks. */
const answer = (request: IncomingMessage, body: string, response: ServerResponse) => {
  const json = (status: number, value: object) => {
    const text = JSON.stringify(value);
    response.writeHead(status, {
      'content-type': 'application/x-amz-json-1.0',
      'content-length': Buffer.byteLength(text),
    });
    response.end(text);
  };
  if (request.headers['x-amz-target'] !== SEND_MESSAGE)
    return json(400, {
      __type: 'com.amazonaws.sqs#UnsupportedOperation',
      message: 'only SendMessage is answered here',
    });
  const { MessageBody } = JSON.parse(body) as { MessageBody: string };
  return json(200, { MessageId: randomUUID(), MD5OfMessageBody: createHash('md5').update(MessageBody).digest('hex') });
};

/**
 * An SQS endpoint in this process that takes SendMessage (SQS has no local engine), and the client a Lambda
 * function builds for it: the reset queue's sends are then AWS requests the bench can time and replay, like
 * DynamoDB's. What is sent is dropped; nothing consumes it.
 */
export const startSqsEndpoint = async () => {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => answer(request, Buffer.concat(chunks).toString('utf8'), response));
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    client: new SQSClient({
      ...LAMBDA_CLIENT_OPTIONS,
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
    queueUrl: `${endpoint}/000000000000/queued-resets`,
    stop: () => new Promise<void>((closed) => server.close(() => closed())),
  };
};
