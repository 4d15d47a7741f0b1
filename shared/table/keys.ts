/** Item keys of the one table. `PK = "<TYPE>#<id>"`, `SK` names the item inside the partition. */

import { ENTITY_TYPES, entityName, type EntityType } from '../domain/levels';

/** The partition prefixes of every kind of item; IAM's `dynamodb:LeadingKeys` conditions are built from these. */
export const PARTITION_PREFIX = {
  user: 'USER#',
  username: 'USERNAME#',
  email: 'EMAIL#',
  apiKey: 'APIKEY#',
  token: 'TOKEN#',
  session: 'SESSION#',
  reset: 'RESET#',
  resetRate: 'RESETRATE#',
  hashUse: 'HASHUSE#',
  meter: 'METER#',
  idempotency: 'IDEMPOTENCY#',
  sequence: 'SEQUENCE#',
  action: 'ACTION#',
  webhooks: 'WEBHOOKS#',
} as const;

/** Partition prefixes of the five entity types: `ADVERTISER#` … `PLACEMENT#`. */
export const ENTITY_PARTITION_PREFIXES: readonly string[] = ENTITY_TYPES.map((type) => `${type}#`);

export type ItemKey = {
  PK: string;
  SK: string;
};

/** One string per item key, for maps and sets of keys. */
export const itemKeyText = (key: ItemKey): string => `${key.PK}\u0000${key.SK}`;

/** An entity's partition is named as the entity is named in answers: `CAMPAIGN#100`. */
export const entityPK = (type: EntityType, id: number): string => entityName(type, id);

/** Catalog data of an entity: parents, active, deleted, no-conversion thresholds. */
export const entityKey = (type: EntityType, id: number): ItemKey => ({ PK: entityPK(type, id), SK: 'ENTITY' });

export const actionKey = (id: number): ItemKey => ({ PK: `${PARTITION_PREFIX.action}${id}`, SK: 'ACTION' });

export const userPK = (userId: number): string => `${PARTITION_PREFIX.user}${userId}`;
export const userProfileKey = (userId: number): ItemKey => ({ PK: userPK(userId), SK: 'PROFILE' });
/** `md5hex(password)`, the verifier of Epom hash authentication, kept apart from the login hash. */
export const userHashVerifierKey = (userId: number): ItemKey => ({ PK: userPK(userId), SK: 'HASH_VERIFIER' });
export const ACCESS_PREFIX = 'ACCESS#';
export const userAccessKey = (userId: number, type: EntityType, id: number): ItemKey => ({
  PK: userPK(userId),
  SK: `${ACCESS_PREFIX}${type}#${id}`,
});

export const usernameKey = (username: string): ItemKey => ({
  PK: `${PARTITION_PREFIX.username}${username}`,
  SK: 'USERNAME',
});
export const emailKey = (email: string): ItemKey => ({
  PK: `${PARTITION_PREFIX.email}${email.toLowerCase()}`,
  SK: 'EMAIL',
});
export const apiKeyKey = (sha256Hex: string): ItemKey => ({
  PK: `${PARTITION_PREFIX.apiKey}${sha256Hex}`,
  SK: 'APIKEY',
});

/** Short-lived items are keyed by the SHA-256 of their secret, so a table reader cannot replay them. */
export const loginTokenKey = (tokenDigest: string): ItemKey => ({
  PK: `${PARTITION_PREFIX.token}${tokenDigest}`,
  SK: 'TOKEN',
});
export const sessionKey = (sessionDigest: string): ItemKey => ({
  PK: `${PARTITION_PREFIX.session}${sessionDigest}`,
  SK: 'SESSION',
});
export const resetTokenKey = (tokenDigest: string): ItemKey => ({
  PK: `${PARTITION_PREFIX.reset}${tokenDigest}`,
  SK: 'RESET',
});
/** One hash-authenticated write: the user, the timestamp and a digest of the request (method, path, parameters). */
export const hashUseKey = (userId: number, timestamp: string, requestDigest: string): ItemKey => ({
  PK: `${PARTITION_PREFIX.hashUse}${userId}#${timestamp}#${requestDigest}`,
  SK: 'HASHUSE',
});
/** One caller's write under one `Idempotency-Key` (its digest): keys never collide across callers. */
export const idempotencyKey = (userId: number, keyDigest: string): ItemKey => ({
  PK: `${PARTITION_PREFIX.idempotency}${userId}#${keyDigest}`,
  SK: 'IDEMPOTENCY',
});

/** One user's requests in one UTC day, for partners metered by the family handlers (signature in a form body). */
export const meterKey = (userId: number, day: string): ItemKey => ({
  PK: `${PARTITION_PREFIX.meter}${userId}`,
  SK: `DAY#${day}`,
});
/** When the last reset e-mail went to one address (by digest). */
export const resetRateKey = (emailDigest: string): ItemKey => ({
  PK: `${PARTITION_PREFIX.resetRate}${emailDigest}`,
  SK: 'LAST_SENT',
});

export const LIMIT_SK = 'LIMIT';
export const limitKey = (type: EntityType, id: number): ItemKey => ({ PK: entityPK(type, id), SK: LIMIT_SK });
/** Every counter of an entity, in one item: each period's counters, the no-conversion state, what was applied. */
export const COUNTERS_SK = 'COUNTERS';
export const countersKey = (type: EntityType, id: number): ItemKey => ({ PK: entityPK(type, id), SK: COUNTERS_SK });
/** Shard n ≥ 1 of a sharded entity's counters (shard 0 is `COUNTERS`, which holds the shard count). */
export const COUNTER_SHARD_PREFIX = `${COUNTERS_SK}#`;
export const counterShardKey = (type: EntityType, id: number, shard: number): ItemKey =>
  shard === 0 ? countersKey(type, id) : { PK: entityPK(type, id), SK: `${COUNTER_SHARD_PREFIX}${shard}` };
/**
 * A message group's marker kept beside a counter item (`GM#<the counter item's SK>#<group>`), in the counter item's
 * partition: no query of an entity's partition starts with `GM#` (`COUNTERS`, `ACT`, `ACTION#`, `HISTORY#`).
 */
export const GROUP_MARKER_PREFIX = 'GM#';
export const groupMarkerKey = (counterItem: ItemKey, group: string): ItemKey => ({
  PK: counterItem.PK,
  SK: `${GROUP_MARKER_PREFIX}${counterItem.SK}#${group}`,
});
/** That a sharded entity's crossing (its LimitReached id) was told: it is told once, as far as the stream can. */
export const reachedKey = (type: EntityType, id: number, crossing: string): ItemKey => ({
  PK: entityPK(type, id),
  SK: `REACHED#${crossing}`,
});
/** Source of record ids: one atomic counter per kind. */
export const sequenceKey = (kind: string): ItemKey => ({ PK: `${PARTITION_PREFIX.sequence}${kind}`, SK: 'SEQUENCE' });

export const ACTION_LIMIT_PREFIX = 'ACTION#';
/** The per-action limit of one action on one entity: at most one per pair, by construction of the key. */
export const actionLimitKey = (type: EntityType, id: number, actionId: number): ItemKey => ({
  PK: entityPK(type, id),
  SK: `${ACTION_LIMIT_PREFIX}${actionId}`,
});
/** The per-action switch (`actionLimitsEnabled`) of an advertiser, campaign or banner. */
export const actionSwitchKey = (type: EntityType, id: number): ItemKey => ({
  PK: entityPK(type, id),
  SK: 'ACTION_SWITCH',
});
export const HISTORY_PREFIX = 'HISTORY#';
/** Entries by version sort after every older entry keyed by time (`HISTORY#2026-…#<random>`): digits < `V`. */
export const VERSIONED_HISTORY_PREFIX = `${HISTORY_PREFIX}V#`;
const HISTORY_VERSION_DIGITS = 12;
/** One change of an entity's limits, by the entity's history version, in commit order: `HISTORY#V#000000000007`. */
export const historyKey = (type: EntityType, id: number, version: number): ItemKey => ({
  PK: entityPK(type, id),
  SK: `${VERSIONED_HISTORY_PREFIX}${String(version).padStart(HISTORY_VERSION_DIGITS, '0')}`,
});
/** The version of an entity's newest history entry (`version`), raised in each transaction that adds one. */
export const historyHeadKey = (type: EntityType, id: number): ItemKey => ({ PK: entityPK(type, id), SK: 'HISTORY' });
/** A queued reset the flush has applied, so that applying it again changes nothing and records nothing. */
export const resetAppliedKey = (type: EntityType, id: number, resetId: string): ItemKey => ({
  PK: entityPK(type, id),
  SK: `RESET_APPLIED#${resetId}`,
});
export const ACTION_COUNTER_PREFIX = 'ACTCTR#';
/** Today's and the total conversions of one action on one entity, in one item: `ACTCTR#7`. */
export const actionCountersKey = (type: EntityType, id: number, actionId: number): ItemKey => ({
  PK: entityPK(type, id),
  SK: `${ACTION_COUNTER_PREFIX}${actionId}`,
});

/**
 * A user's webhook subscriptions live in a partition of the user's own (`WEBHOOKS#<userId>`): one user's deliveries
 * read and write there, never in a partition every partner shares.
 */
export const webhooksPK = (userId: number): string => `${PARTITION_PREFIX.webhooks}${userId}`;
export const WEBHOOK_PREFIX = 'WEBHOOK#';
/** One subscription, in full (URL, secrets, status, failure run). */
export const webhookKey = (userId: number, id: string): ItemKey => ({
  PK: webhooksPK(userId),
  SK: `${WEBHOOK_PREFIX}${id}`,
});
/**
 * The user's routes: how many subscriptions it holds (`count`, kept below the cap in the transactions that create and
 * delete them) and, for each active one, what fan-out matches an event against (an attribute named by its id).
 */
export const webhookRoutesKey = (userId: number): ItemKey => ({ PK: webhooksPK(userId), SK: 'ROUTES' });
