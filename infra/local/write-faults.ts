import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

const WRITE_COMMANDS = /^(PutItem|UpdateItem|DeleteItem|BatchWriteItem|TransactWriteItems)Command$/;

/**
 * `/_local/faults`: fails chosen DynamoDB write requests with a throttling error the SDK does not retry (the
 * middleware sits before its retry loop), so tests can fail a write at any point of an operation.
 */
export class WriteFaults {
  private pending = new Set<number>();
  private seen = 0;

  constructor(client: DynamoDBClient) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (WRITE_COMMANDS.test(String((context as { commandName?: string }).commandName)) && this.pending.size > 0) {
          this.seen++;
          if (this.pending.delete(this.seen))
            throw Object.assign(new Error(`Injected fault on write request ${this.seen}`), {
              name: 'ThrottlingException',
              $fault: 'client',
              $metadata: { httpStatusCode: 400 },
            });
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
