/** Failures of the store, in the domain's words, so that nothing above the adapters needs the AWS SDK. */

/** A conditional write found the item other than expected: a lost optimistic-locking race, a used token. */
export class WriteConflict extends Error {
  constructor(
    /** The item as it stood, when the store returned it. */
    readonly current?: Record<string, unknown>,
    /** In a transaction: the positions of the items whose condition failed, when the store names them. */
    readonly failedItems?: readonly number[],
  ) {
    super('The item changed or exists');
    this.name = 'WriteConflict';
  }
}

/** The store refused for load (throttling, a conflicting transaction): retry later. */
export class ServiceBusy extends Error {
  constructor(override readonly cause?: unknown) {
    super('The store is busy');
    this.name = 'ServiceBusy';
  }
}

/**
 * The store refused a request as invalid (DynamoDB's ValidationException): the request is wrong, not the moment,
 * so sending it again cannot help. A defect in the code that built it (or an item past the size limit).
 */
export class InvalidRequest extends Error {
  /** The refused request, where the code that sent it attached it. */
  request?: unknown;

  constructor(override readonly message: string) {
    super(message);
    this.name = 'InvalidRequest';
  }
}
