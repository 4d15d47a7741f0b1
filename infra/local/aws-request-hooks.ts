import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Dependencies } from '../../shared/runtime/dependencies';
import type { DeadLetterSink } from '../../shared/ports/dead-letters';
import type { ResetSource } from '../../shared/ports/reset-queue';
import { TABLE_DEFINITION } from '../../shared/table/table-definition';
import { noteAwsRequests, recordingAwsRequests, type AwsRequestKind } from './aws-request-log';

type Key = Record<string, AttributeValue> | undefined;
type Input = Record<string, unknown>;

/** What IAM authorizes for each kind of item in a transaction (AWS: "Using IAM with DynamoDB transactions"). */
const TRANSACTION_ITEM_ACTIONS: Record<string, string> = {
  Put: 'dynamodb:PutItem',
  Update: 'dynamodb:UpdateItem',
  Delete: 'dynamodb:DeleteItem',
  ConditionCheck: 'dynamodb:ConditionCheckItem',
  Get: 'dynamodb:GetItem',
};

const onTable = (action: string, key: Key, partitionKey: string = TABLE_DEFINITION.partitionKey): AwsRequestKind => ({
  action,
  target: 'TABLE_NAME',
  ...(key?.[partitionKey]?.S !== undefined ? { partitionKey: key[partitionKey].S } : {}),
});

/** The partition a Query reads: the value its key condition sets the partition key equal to. */
const queriedPartition = (input: Input, partitionKey: string): Key => {
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, AttributeValue>;
  for (const [, name, value] of String(input.KeyConditionExpression ?? '').matchAll(/([#\w]+) = (:\w+)/g))
    if ((names[name!] ?? name) === partitionKey) return { [partitionKey]: values[value!]! };
  return undefined;
};

const queried = (input: Input): AwsRequestKind => {
  const index = input.IndexName as string | undefined;
  const partitionKey =
    index === TABLE_DEFINITION.byParentIndex.indexName
      ? TABLE_DEFINITION.byParentIndex.partitionKey
      : TABLE_DEFINITION.partitionKey;
  return {
    ...onTable('dynamodb:Query', queriedPartition(input, partitionKey), partitionKey),
    ...(index ? { index } : {}),
  };
};

type BatchWrite = { PutRequest?: { Item: Key }; DeleteRequest?: { Key: Key } };

/** One request per item: IAM authorizes a batch's and a transaction's items one by one. */
export const tableRequestsOf = (command: string, input: Input): AwsRequestKind[] => {
  const action = `dynamodb:${command.replace(/Command$/, '')}`;
  switch (command) {
    case 'PutItemCommand':
      return [onTable(action, input.Item as Key)];
    case 'QueryCommand':
      return [queried(input)];
    case 'BatchGetItemCommand':
      return Object.values(input.RequestItems as Record<string, { Keys: Key[] }>).flatMap(({ Keys }) =>
        Keys.map((key) => onTable(action, key)),
      );
    case 'BatchWriteItemCommand':
      return Object.values(input.RequestItems as Record<string, BatchWrite[]>).flatMap((writes) =>
        writes.map((write) => onTable(action, write.PutRequest?.Item ?? write.DeleteRequest?.Key)),
      );
    case 'TransactWriteItemsCommand':
    case 'TransactGetItemsCommand':
      return (input.TransactItems as Record<string, { Key?: Key; Item?: Key }>[]).map((item) => {
        const [kind, body] = Object.entries(item)[0]!;
        return onTable(TRANSACTION_ITEM_ACTIONS[kind] ?? `dynamodb:${kind}`, body.Key ?? body.Item);
      });
    default:
      return [onTable(action, input.Key as Key)];
  }
};

/** Notes every request the table client sends, once per command (before the SDK's retries). */
export const recordTableRequests = (client: DynamoDBClient): void => {
  if (!recordingAwsRequests) return;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      noteAwsRequests(tableRequestsOf(String((context as { commandName?: string }).commandName), args.input as Input));
      return next(args);
    },
    { step: 'initialize', name: 'awsRequestLog', priority: 'high' },
  );
};

const noting = <A extends unknown[], R>(
  call: (...args: A) => Promise<R>,
  requests: (...args: NoInfer<A>) => AwsRequestKind[],
): ((...args: A) => Promise<R>) => {
  return (...args: A) => {
    noteAwsRequests(requests(...args));
    return call(...args);
  };
};

const one = (action: string, target: AwsRequestKind['target']) => (): AwsRequestKind[] => [{ action, target }];

/**
 * What each in-process port stands for in AWS: the request its SQS, EventBridge or SES adapter sends. Each call
 * looks its method up when it is made, so that a test's spy on a port (a fault it injects) still takes effect.
 */
export const recordedPorts = (ports: Dependencies): Dependencies => {
  if (!recordingAwsRequests) return ports;
  const { mailer, resetQueue, events, deadLetters } = ports;
  const publish = (events: readonly unknown[]): AwsRequestKind[] =>
    events.length > 0 ? [{ action: 'events:PutEvents', target: 'EVENT_BUS_NAME' }] : [];
  return {
    ...ports,
    mailer: {
      send: noting(
        (...args: Parameters<typeof mailer.send>) => mailer.send(...args),
        one('ses:SendEmail', 'MAIL_FROM'),
      ),
    },
    resetQueue: {
      enqueue: noting(
        (...args: Parameters<typeof resetQueue.enqueue>) => resetQueue.enqueue(...args),
        one('sqs:SendMessage', 'RESET_QUEUE_URL'),
      ),
    },
    events: {
      publishLimitReached: noting(
        (...args: Parameters<typeof events.publishLimitReached>) => events.publishLimitReached(...args),
        publish,
      ),
      publishLimitChanged: noting(
        (...args: Parameters<typeof events.publishLimitChanged>) => events.publishLimitChanged(...args),
        publish,
      ),
    },
    deadLetters: {
      send: noting(
        (...args: Parameters<typeof deadLetters.send>) => deadLetters.send(...args),
        one('sqs:SendMessage', 'DELIVERY_DLQ_URL'),
      ),
    },
  };
};

/** The history-events function's own dead letters: records it cannot decode or judge, sent to its queue. */
export const recordedStreamDeadLetters = (sink: DeadLetterSink): DeadLetterSink =>
  recordingAwsRequests
    ? {
        send: noting(
          (...args: Parameters<typeof sink.send>) => sink.send(...args),
          one('sqs:SendMessage', 'HISTORY_DLQ_URL'),
        ),
      }
    : sink;

/** The flush's view of the queue: a receive, and a DeleteMessageBatch (authorized as `sqs:DeleteMessage`). */
export const recordedResetSource = <S extends ResetSource>(source: S): S => {
  if (!recordingAwsRequests) return source;
  return {
    ...source,
    receive: noting(source.receive.bind(source), one('sqs:ReceiveMessage', 'RESET_QUEUE_URL')),
    acknowledge: noting(source.acknowledge.bind(source), (receipts) =>
      receipts.length > 0 ? [{ action: 'sqs:DeleteMessage', target: 'RESET_QUEUE_URL' }] : [],
    ),
  };
};
