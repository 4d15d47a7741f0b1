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
  byParentIndex: { indexName: 'byParent', partitionKey: 'parentPK', sortKey: 'PK' },
} as const;

export const DEFAULT_TABLE_NAME = 'delivery-limits';
