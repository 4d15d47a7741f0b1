import { ENTITY_PARTITION_PREFIXES, PARTITION_PREFIX } from '../../shared/table/keys';
import type { FunctionName } from './bundling';

/** `dynamodb:LeadingKeys` patterns: every partition starting with the prefix. */
const leading = (...prefixes: readonly string[]): string[] => prefixes.map((prefix) => `${prefix}*`);
const { user, username, email, apiKey, token, session, reset, resetRate, hashUse, sequence, action, meter } =
  PARTITION_PREFIX;

/** Partition-key prefixes a function's table requests may start with (IAM `dynamodb:LeadingKeys`). */
const ENTITIES = leading(...ENTITY_PARTITION_PREFIXES);
/** What the family handlers read and write to authenticate a form body's hash parameters and meter its partner. */
const BODY_HASH_AUTH = leading(user, username, hashUse, meter);

export interface FunctionAccess {
  /** Exactly the DynamoDB actions the function's code sends; template tests assert these sets. */
  tableActions: readonly string[];
  leadingKeys: readonly string[];
  /** Queries the `byParent` index (campaigns of an advertiser, for the bulk read). */
  queriesParentIndex?: boolean;
}

/** The two limit families: the same operations on their own levels (DeleteItem releases a failed write's replay guard). */
const LIMIT_FAMILY: FunctionAccess = {
  tableActions: [
    'dynamodb:BatchGetItem',
    'dynamodb:BatchWriteItem',
    'dynamodb:DeleteItem',
    'dynamodb:GetItem',
    'dynamodb:PutItem',
    'dynamodb:Query',
    'dynamodb:UpdateItem',
  ],
  leadingKeys: [...ENTITIES, ...BODY_HASH_AUTH, ...leading(sequence)],
};

export const FUNCTION_ACCESS: Readonly<Record<FunctionName, FunctionAccess>> = {
  authorizer: {
    // reads only: replay protection of hash writes is recorded by the family handler, which sees the whole request
    tableActions: ['dynamodb:BatchGetItem', 'dynamodb:GetItem'],
    leadingKeys: leading(apiKey, session, user, username),
  },
  auth: {
    tableActions: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    leadingKeys: leading(user, username, email, token, session, reset, resetRate),
  },
  'demand-limits': { ...LIMIT_FAMILY, queriesParentIndex: true },
  'supply-limits': LIMIT_FAMILY,
  // the family's operations, plus the partitions of per-action caps
  'per-action': { ...LIMIT_FAMILY, leadingKeys: [...LIMIT_FAMILY.leadingKeys, ...leading(action)] },
  'delivery-recorder': {
    tableActions: ['dynamodb:BatchGetItem', 'dynamodb:UpdateItem'],
    leadingKeys: ENTITIES,
  },
  'reset-flush': {
    tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
    leadingKeys: ENTITIES,
  },
  // reads the table's stream only (granted with its trigger), never the table
  'history-events': { tableActions: [], leadingKeys: [] },
};
