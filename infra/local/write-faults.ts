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

/** The answer of a write DynamoDB applied, lost on its way back: what the SDK reports when the connection drops. */
const lostAnswer = (number: number): Error =>
  Object.assign(new Error(`Injected loss of the answer to write request ${number}, after it was applied`), {
    name: 'TimeoutError',
  });

/**
 * `/_local/faults`: fails chosen DynamoDB write requests with a throttling error the SDK does not retry (the
 * middleware sits before its retry loop), so tests can fail a write at any point of an operation. A transaction
 * fails as DynamoDB cancels one under load: whole, with a throttling reason per item. A write whose answer is lost
 * is applied, and then fails as a dropped connection does (a timeout after commit).
 */
export class WriteFaults {
  private pending = new Set<number>();
  private losing = new Set<number>();
  private seen = 0;

  constructor(client: DynamoDBClient) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const commandName = String((context as { commandName?: string }).commandName);
        if (!WRITE_COMMANDS.test(commandName) || this.pending.size + this.losing.size === 0) return next(args);
        const number = ++this.seen;
        if (this.pending.delete(number)) throw injectedFault(commandName, args.input, number);
        const output = await next(args);
        if (this.losing.delete(number)) throw lostAnswer(number);
        return output;
      },
      { step: 'initialize', name: 'localWriteFaults' },
    );
  }

  /** From now on, the given write requests (counting from 1) fail, or are applied and lose their answer; empty clears. */
  set(failWrites: readonly number[], loseAnswers: readonly number[] = []): void {
    this.pending = new Set(failWrites);
    this.losing = new Set(loseAnswers);
    this.seen = 0;
  }

  get state(): { failWrites: number[]; loseAnswers: number[]; writesSeen: number } {
    const sorted = (numbers: Set<number>) => [...numbers].sort((a, b) => a - b);
    return { failWrites: sorted(this.pending), loseAnswers: sorted(this.losing), writesSeen: this.seen };
  }
}
