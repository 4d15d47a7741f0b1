/** Item keys of the one table. `PK = "<TYPE>#<id>"`, `SK` names the item inside the partition. */

export const ENTITY_TYPES = ['ADVERTISER', 'CAMPAIGN', 'BANNER', 'SITE', 'PLACEMENT'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export type ItemKey = {
  PK: string;
  SK: string;
};

export const entityPK = (type: EntityType, id: number): string => `${type}#${id}`;

/** Catalog data of an entity: parents, active, deleted, no-conversion thresholds. */
export const entityKey = (type: EntityType, id: number): ItemKey => ({ PK: entityPK(type, id), SK: 'ENTITY' });

export const actionKey = (id: number): ItemKey => ({ PK: `ACTION#${id}`, SK: 'ACTION' });

export const userPK = (userId: number): string => `USER#${userId}`;
export const userProfileKey = (userId: number): ItemKey => ({ PK: userPK(userId), SK: 'PROFILE' });
/** `md5hex(password)`, the verifier of Epom hash authentication, kept apart from the login hash. */
export const userHashVerifierKey = (userId: number): ItemKey => ({ PK: userPK(userId), SK: 'HASH_VERIFIER' });
export const ACCESS_PREFIX = 'ACCESS#';
export const userAccessKey = (userId: number, type: EntityType, id: number): ItemKey => ({
  PK: userPK(userId),
  SK: `${ACCESS_PREFIX}${type}#${id}`,
});

export const usernameKey = (username: string): ItemKey => ({ PK: `USERNAME#${username}`, SK: 'USERNAME' });
export const emailKey = (email: string): ItemKey => ({ PK: `EMAIL#${email.toLowerCase()}`, SK: 'EMAIL' });
export const apiKeyKey = (sha256Hex: string): ItemKey => ({ PK: `APIKEY#${sha256Hex}`, SK: 'APIKEY' });
