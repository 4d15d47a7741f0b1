import type { Operation, Route } from '../route-table';

// What a code sample sends: the demo catalog's entities, and fields each operation accepts.

export type Value = string | number | boolean | readonly (string | number)[];
export type Fields = Record<string, Value>;

/** The sample's path parameters: a demo entity of each kind. */
const PATH_VALUES: Record<string, string> = {
  advertiserId: '10',
  campaignId: '100',
  bannerId: '1000',
  siteId: '20',
  placementId: '200',
  type: 'CAMPAIGN',
  entityId: '100',
  authToken: '0f3c9a7b2d4e6f8091a2b3c4d5e6f708',
  webhookId: 'wh_k3v7q2mz5x4c6b2n2p7r',
};

const SAMPLE_FIELDS: Partial<Record<Operation, Fields>> = {
  'auth.token': { username: 'demo', password: 'demo-password' },
  'auth.login': { json: true },
  'auth.forgot': { email: 'demo@example.com' },
  'auth.resetPassword': { token: '0f3c9a7b2d4e6f8091a2b3c4d5e6f708', password: 'a-new-password' },
  'limits.set': { dailyImpressionsLimit: 1000, totalClicksLimit: 500 },
  'limits.update': { dailyImpressionsLimit: 1200 },
  'limits.reset': { limitCounters: ['DAILY_IMPRESSIONS', 'TOTAL_CLICKS'] },
  'limits.resetByDelete': { limitCounters: ['DAILY_IMPRESSIONS', 'TOTAL_CLICKS'] },
  'limits.history': { limit: 20 },
  'limits.bulkCampaigns': { campaignIds: [100, 102] },
  'limits.bulkBanners': { bannerIds: [1000, 1001] },
  'perAction.add': { actionId: 7, dailyConversionsLimit: 5, totalConversionsLimit: 50 },
  'perAction.update': { actionId: 7, dailyConversionsLimit: 8 },
  'perAction.delete': { type: 'CAMPAIGN', entityId: 100, ids: [3] },
  'webhooks.create': { url: 'https://partner.example/hooks/limits', events: ['limit.reached'], campaignIds: [100] },
  'webhooks.update': { url: 'https://partner.example/hooks/limits-v2', events: ['limit.reached'], campaignIds: [100] },
};

export const fieldsOf = (route: Route): Fields => SAMPLE_FIELDS[route.operation] ?? {};

export const pathValues = (route: Route): Fields =>
  Object.fromEntries(
    [...route.path.matchAll(/\{([A-Za-z]+)\}/g)].map(([, name]) => {
      const value = PATH_VALUES[name!]!;
      return [name!, /^\d+$/.test(value) ? Number(value) : value];
    }),
  );

export const concretePath = (route: Route): string =>
  route.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => PATH_VALUES[name]!);

export const text = (value: Value): string => (Array.isArray(value) ? value.join(',') : String(value));

/** Parameters of a GET or DELETE go in the query string; of a POST, in the form body. */
export const inBody = (route: Route) => route.method === 'POST';

/** One call a sample makes: the route, its fields, the server and the key it sends. */
export interface SampleCall {
  route: Route;
  fields: Fields;
  serverUrl: string;
  apiKey: string;
  /** A call to make before it, on the demo data: the one that makes what it changes. */
  first?: Route;
}

/** Said where a sample makes what it changes first. */
export const PREREQUISITE_NOTE = 'the demo data starts without limits: this makes the ones the call changes';
