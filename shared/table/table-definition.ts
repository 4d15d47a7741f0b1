/** The one table: the local runtime creates it from this, and the CDK stack declares it from this. */
export const TABLE_DEFINITION = {
  partitionKey: 'PK',
  sortKey: 'SK',
  timeToLiveAttribute: 'expiresAt',
  /**
   * The stream carries both images: new history entries become LimitChanged events, and a counter write whose old
   * and new counters straddle a cap it stored becomes a LimitReached event.
   */
  streamView: 'NEW_AND_OLD_IMAGES',
  /** Children of a parent entity (campaigns of an advertiser, banners of a campaign, placements of a site). */
  byParentIndex: { indexName: 'byParent', partitionKey: 'parentPK', sortKey: 'PK', projection: 'ALL' },
  /**
   * The users holding an UPDATE share on an entity (a share item carries `updateShareOf`, the entity's name, only at
   * that level): the webhook dispatcher finds who may hear of an event by querying it for the entity and each
   * ancestor. Keys only: the share's own key names the user.
   */
  byUpdateShareIndex: {
    indexName: 'byUpdateShare',
    partitionKey: 'updateShareOf',
    sortKey: 'PK',
    projection: 'KEYS_ONLY',
  },
} as const;

/** Every global secondary index of the table, as both the local runtime and the stack create them. */
export const TABLE_INDEXES = [TABLE_DEFINITION.byParentIndex, TABLE_DEFINITION.byUpdateShareIndex] as const;

/** What a share item carries when its level is UPDATE: the entity's name, the key of `byUpdateShare`. */
export const UPDATE_SHARE_ATTRIBUTE = TABLE_DEFINITION.byUpdateShareIndex.partitionKey;

export const DEFAULT_TABLE_NAME = 'delivery-limits';
