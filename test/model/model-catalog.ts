const PERIOD_WORDS = ['Daily', 'Weekly', 'Monthly', 'Total'];
const enabled = (names: string[]) => Object.fromEntries(names.map((name) => [name, 'ENABLED']));

/** The API key of the catalog's user, who may set and reset every cap of every entity. */
export const MODEL_API_KEY = 'model-key-0001';

/** The small catalog the model-based test imports through `/_local/catalog`, and the same tree as the model sees it. */
export const MODEL_CATALOG = {
  users: [
    {
      id: 91,
      username: 'model',
      password: 'model-password',
      email: 'model@example.com',
      role: 'NETWORK',
      apiKeys: [MODEL_API_KEY],
      permissions: enabled([
        'Manage Capping & Limitations',
        'Manage Site and Placement Limits',
        'Campaign Per Action Limit',
        'Inventory Per Action Limit',
        'Daily Budget',
        'Weekly Budget',
        'Monthly Budget',
        'Budget',
        ...PERIOD_WORDS.flatMap((period) =>
          ['Impressions', 'Clicks', 'Conversions', 'Opportunities'].map((metric) => `${period} ${metric} Limit`),
        ),
      ]),
      inventoryPermissions: enabled(
        PERIOD_WORDS.flatMap((period) =>
          ['Requests', 'Impressions', 'Clicks', 'Conversions'].map((metric) => `${period} ${metric} Limit`),
        ),
      ),
      access: [
        { type: 'ADVERTISER', id: 91, level: 'UPDATE' },
        { type: 'ADVERTISER', id: 92, level: 'UPDATE' },
        { type: 'SITE', id: 93, level: 'UPDATE' },
        { type: 'SITE', id: 94, level: 'UPDATE' },
      ],
    },
  ],
  advertisers: [{ id: 91 }, { id: 92 }],
  campaigns: [
    { id: 910, advertiserId: 91 },
    { id: 911, advertiserId: 91 },
    { id: 920, advertiserId: 92 },
  ],
  banners: [
    { id: 9100, campaignId: 910 },
    { id: 9101, campaignId: 910 },
    { id: 9110, campaignId: 911 },
    { id: 9200, campaignId: 920 },
  ],
  sites: [{ id: 93 }, { id: 94 }],
  placements: [
    { id: 930, siteId: 93 },
    { id: 931, siteId: 93 },
    { id: 940, siteId: 94 },
  ],
  actions: [
    { id: 7, name: 'signup' },
    { id: 8, name: 'purchase' },
  ],
};

/** Ids the catalog does not hold: their events are dropped. */
export const UNKNOWN_BANNER = 9999;
export const UNKNOWN_PLACEMENT = 9998;

export const BANNER_IDS = [...MODEL_CATALOG.banners.map(({ id }) => id), UNKNOWN_BANNER];
export const PLACEMENT_IDS = [...MODEL_CATALOG.placements.map(({ id }) => id), UNKNOWN_PLACEMENT];
export const ACTION_IDS = MODEL_CATALOG.actions.map(({ id }) => id);

/** The counter items (as `TYPE#id`) an event on the banner counts on: the banner, its campaign, its advertiser. */
export const bannerChain = (bannerId: number): string[] | undefined => {
  const banner = MODEL_CATALOG.banners.find(({ id }) => id === bannerId);
  const campaign = MODEL_CATALOG.campaigns.find(({ id }) => id === banner?.campaignId);
  return banner && campaign
    ? [`BANNER#${banner.id}`, `CAMPAIGN#${campaign.id}`, `ADVERTISER#${campaign.advertiserId}`]
    : undefined;
};

/** The placement and its site. */
export const placementChain = (placementId: number): string[] | undefined => {
  const placement = MODEL_CATALOG.placements.find(({ id }) => id === placementId);
  return placement ? [`PLACEMENT#${placement.id}`, `SITE#${placement.siteId}`] : undefined;
};

/** Every entity of the catalog, as `TYPE#id`: the ones a reset may name. */
export const ENTITIES: string[] = [
  ...MODEL_CATALOG.advertisers.map(({ id }) => `ADVERTISER#${id}`),
  ...MODEL_CATALOG.campaigns.map(({ id }) => `CAMPAIGN#${id}`),
  ...MODEL_CATALOG.banners.map(({ id }) => `BANNER#${id}`),
  ...MODEL_CATALOG.sites.map(({ id }) => `SITE#${id}`),
  ...MODEL_CATALOG.placements.map(({ id }) => `PLACEMENT#${id}`),
];

export const isSupply = (entity: string): boolean => entity.startsWith('SITE#') || entity.startsWith('PLACEMENT#');
