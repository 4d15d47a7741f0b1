import { TransactionCanceledException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';

const WRITE_COMMANDS = /^(PutItem|UpdateItem|DeleteItem|BatchWriteItem|TransactWriteItems)Command$/;

/** A fault as DynamoDB reports it: a transaction is cancelled, throttled on every item; other writes throttled. */
const injectedFault = (commandName: string, input: unknown, number: number): Error => {
  const message = `Injected fault on write request ${number}`;
  const metadata = { $fault: 'client' as const, $metadata: { httpStatusCode: 400 } };
  if (commandName !== 'TransactWriteItemsCommand')
    return Object.assign(new Error(message), { name: 'ThrottlingException', ...metadata });
  const items = (input as { TransactItems?: unknown[] }).TransactItems ?? [];
  return new TransactionCanceledException({
    message,
    ...metadata,
    CancellationReasons: items.map(() => ({ Code: 'ThrottlingError', Message: message })),
  });
};

/**
 * `/_local/faults`: fails chosen DynamoDB write requests with a throttling error the SDK does not retry (the
 * middleware sits before its retry loop), so tests can fail a write at any point of an operation. A transaction
 * fails as DynamoDB cancels one under load: whole, with a throttling reason per item.
 */
export class WriteFaults {
  private pending = new Set<number>();
  private seen = 0;

  constructor(client: DynamoDBClient) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const commandName = String((context as { commandName?: string }).commandName);
        if (WRITE_COMMANDS.test(commandName) && this.pending.size > 0) {
          this.seen++;
          if (this.pending.delete(this.seen)) throw injectedFault(commandName, args.input, this.seen);
        }
        return next(args);
      },
      { step: 'initialize', name: 'localWriteFaults' },
    );
  }

  /** From now on, the given write requests (counting from 1) fail; an empty list clears. */
  set(failWrites: readonly number[]): void {
    this.pending = new Set(failWrites);
    this.seen = 0;
  }

  get state(): { failWrites: number[]; writesSeen: number } {
    return { failWrites: [...this.pending].sort((a, b) => a - b), writesSeen: this.seen };
  }
}
