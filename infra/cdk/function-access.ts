import { ENTITY_PARTITION_PREFIXES, PARTITION_PREFIX } from '../../shared/table/keys';
import type { TABLE_DEFINITION } from '../../shared/table/table-definition';
import type { FunctionName } from './bundling';

/** The table's secondary indexes, by name. */
type IndexName = typeof TABLE_DEFINITION.byParentIndex.indexName | typeof TABLE_DEFINITION.byUpdateShareIndex.indexName;

/**
 * `dynamodb:LeadingKeys` patterns: every partition starting with the prefix. A prefix ends with its separator: `USER*`
 * would reach `USERNAME#…` too.
 */
const leading = (...prefixes: readonly string[]): string[] =>
  prefixes.map((prefix) => {
    if (!prefix.endsWith('#')) throw new Error(`the partition prefix ${prefix} does not end with its "#"`);
    return `${prefix}*`;
  });
const {
  user,
  username,
  email,
  apiKey,
  token,
  session,
  reset,
  resetRate,
  hashUse,
  meter,
  idempotency,
  sequence,
  action,
  webhooks,
} = PARTITION_PREFIX;

/** Partition-key prefixes of the five entity types. */
const ENTITIES = leading(...ENTITY_PARTITION_PREFIXES);

/** The actions that only read items, and those that change them: a grant holds actions of one kind. */
export const READ_ACTIONS = ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query'] as const;
export const WRITE_ACTIONS = [
  'dynamodb:BatchWriteItem',
  'dynamodb:DeleteItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
] as const;

/** Some table actions on the partitions whose keys start with the given prefixes (IAM `dynamodb:LeadingKeys`). */
export interface TableGrant {
  actions: readonly string[];
  leadingKeys: readonly string[];
}

/** A transaction's check that an item is still absent (IAM authorizes each item of a transaction on its own). */
export const CHECK_ACTIONS = ['dynamodb:ConditionCheckItem'] as const;

export interface FunctionAccess {
  /**
   * Exactly the reads, the writes and the transaction checks the function's code sends, each on its own partitions:
   * the tests' requests are checked against them (`test/support/iam/`), and template tests assert them.
   */
  reads?: TableGrant;
  writes?: TableGrant;
  checks?: TableGrant;
  /**
   * The indexes it queries: `byParent` (campaigns of an advertiser, for the bulk read), `byUpdateShare` (who may
   * hear of an entity's events, for the webhook dispatcher's fan-out).
   */
  queriesIndexes?: readonly IndexName[];
}

/**
 * The limit families: the same operations on their own levels. They read users and user names to complete a form
 * body's hash authentication and write only its replay guard (DeleteItem releases a failed write's guard) and the
 * signer's own quota counters, never a user item; ids come from an atomic counter (UpdateItem). Deleting a limit
 * whose entity has no counter item yet checks in the same transaction that none appeared (a ConditionCheck).
 */
const LIMIT_FAMILY = {
  reads: { actions: READ_ACTIONS, leadingKeys: [...ENTITIES, ...leading(user, username)] },
  writes: {
    actions: ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    leadingKeys: [...ENTITIES, ...leading(hashUse, meter, idempotency, sequence)],
  },
  checks: { actions: CHECK_ACTIONS, leadingKeys: ENTITIES },
} satisfies FunctionAccess;

export const FUNCTION_ACCESS: Readonly<Record<FunctionName, FunctionAccess>> = {
  authorizer: {
    // reads only: replay protection of hash writes is recorded by the family handler, which sees the whole request
    reads: {
      actions: ['dynamodb:BatchGetItem', 'dynamodb:GetItem'],
      leadingKeys: leading(apiKey, session, user, username),
    },
  },
  auth: {
    reads: { actions: ['dynamodb:GetItem'], leadingKeys: leading(user, username, email, token, reset) },
    // a password reset changes the user's login hash, verifier and newest link; user names and addresses stay
    writes: {
      actions: ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      leadingKeys: leading(user, token, session, reset, resetRate),
    },
  },
  'demand-limits': { ...LIMIT_FAMILY, queriesIndexes: ['byParent'] },
  'supply-limits': LIMIT_FAMILY,
  // the family's operations, plus reading the actions per-action caps are set for
  'per-action': {
    ...LIMIT_FAMILY,
    reads: { ...LIMIT_FAMILY.reads, leadingKeys: [...LIMIT_FAMILY.reads.leadingKeys, ...leading(action)] },
  },
  // its own users' subscriptions (transactions of puts, deletes and updates), reads of the entities they filter on
  // and the caller's grants, and what every API family writes: a form signer's replay guard and quota, idempotency
  webhooks: {
    reads: { actions: READ_ACTIONS, leadingKeys: [...ENTITIES, ...leading(user, username, webhooks)] },
    writes: {
      actions: ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      leadingKeys: leading(hashUse, meter, idempotency, webhooks),
    },
  },
  'delivery-recorder': {
    reads: { actions: ['dynamodb:BatchGetItem'], leadingKeys: ENTITIES },
    writes: { actions: ['dynamodb:UpdateItem'], leadingKeys: ENTITIES },
  },
  'reset-flush': {
    reads: { actions: ['dynamodb:GetItem', 'dynamodb:Query'], leadingKeys: ENTITIES },
    writes: { actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], leadingKeys: ENTITIES },
  },
  // the table's stream (granted with its trigger); a sharded entity's counter shards, and its crossings told
  'history-events': {
    reads: { actions: ['dynamodb:BatchGetItem', 'dynamodb:Query'], leadingKeys: ENTITIES },
    writes: { actions: ['dynamodb:PutItem'], leadingKeys: ENTITIES },
  },
  // fan-out: the entity, who holds an UPDATE share on it (the index) and those users' routes; delivery: the
  // subscription, its owner's account and grants, and the entity; each failed attempt, the success that ends a run
  // and an automatic disabling (with the route it removes, in one transaction) written in the owner's partition
  'webhook-dispatcher': {
    reads: {
      actions: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query'],
      leadingKeys: [...ENTITIES, ...leading(user, webhooks)],
    },
    writes: { actions: ['dynamodb:UpdateItem'], leadingKeys: leading(webhooks) },
    queriesIndexes: ['byUpdateShare'],
  },
};
