import type { FunctionName } from './bundling';

/** Partition-key prefixes a function's table requests may start with (IAM `dynamodb:LeadingKeys`). */
const ENTITIES = ['ADVERTISER#*', 'CAMPAIGN#*', 'BANNER#*', 'SITE#*', 'PLACEMENT#*'];
/** What the family handlers read and write to authenticate a form body's hash parameters. */
const BODY_HASH_AUTH = ['USER#*', 'USERNAME#*', 'HASHUSE#*'];

export interface FunctionAccess {
  /** Exactly the DynamoDB actions the function's code sends; template tests assert these sets. */
  tableActions: readonly string[];
  leadingKeys: readonly string[];
  /** Queries the `byParent` index (campaigns of an advertiser, for the bulk read). */
  queriesParentIndex?: boolean;
}

export const FUNCTION_ACCESS: Readonly<Record<FunctionName, FunctionAccess>> = {
  authorizer: {
    tableActions: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:PutItem'],
    leadingKeys: ['APIKEY#*', 'SESSION#*', ...BODY_HASH_AUTH],
  },
  auth: {
    tableActions: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    leadingKeys: ['USER#*', 'USERNAME#*', 'EMAIL#*', 'TOKEN#*', 'SESSION#*', 'RESET#*', 'RESETRATE#*'],
  },
  'demand-limits': {
    tableActions: ['dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
    leadingKeys: [...ENTITIES, ...BODY_HASH_AUTH, 'SEQUENCE#*'],
    queriesParentIndex: true,
  },
  'supply-limits': {
    tableActions: ['dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
    leadingKeys: [...ENTITIES, ...BODY_HASH_AUTH, 'SEQUENCE#*'],
  },
  'per-action': {
    tableActions: [
      'dynamodb:BatchGetItem',
      'dynamodb:BatchWriteItem',
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ],
    leadingKeys: [...ENTITIES, ...BODY_HASH_AUTH, 'SEQUENCE#*', 'ACTION#*'],
  },
  'delivery-recorder': {
    tableActions: ['dynamodb:BatchGetItem', 'dynamodb:UpdateItem'],
    leadingKeys: ENTITIES,
  },
  'reset-flush': {
    tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
    leadingKeys: ENTITIES,
  },
};
