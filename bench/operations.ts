import { createHash } from 'node:crypto';
import type { LocalService } from '../infra/local/local-service';
import { API_KEY, BENCH_BANNERS } from './bench-service';
import { restorePartitions } from './restore-partition';
import { deliveryMessages } from './throughput';

/** One HTTP request of an operation, as a client sends it. */
export interface BenchRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface BenchOperation {
  name: string;
  /** The fewest DynamoDB requests the data model allows for it, with the reasoning. */
  floor: number;
  why: string;
  /** Work that must happen first and is not measured (a fresh login token). */
  prepare?: (service: LocalService) => Promise<unknown>;
  /**
   * Work that must happen again, unmeasured, before every measured call of an operation that changes its data, so
   * that every call starts from the same data: the overhead measure's raw replay must then commit, not be refused.
   */
  restore?: (service: LocalService) => Promise<unknown>;
  request: (prepared: unknown, iteration: number) => BenchRequest;
}

/** Sends a request to the local server over HTTP. */
export const send = (service: LocalService, request: BenchRequest): Promise<Response> =>
  fetch(`${service.url}${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
  });

const headers = { 'x-api-key': API_KEY };
const get = (path: string): BenchRequest => ({ method: 'GET', path, headers });
const form = (path: string, fields: Record<string, string>): BenchRequest => ({
  method: 'POST',
  path,
  headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
/** A form signed in its body, as Epom's PHP samples sign: the authorizer sees no credential, the family checks it. */
const signedForm = (path: string, fields: Record<string, string>): BenchRequest => {
  const timestamp = String(Date.now());
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  return {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      username: 'demo',
      timestamp,
      hash: md5(md5('demo-password') + timestamp),
      ...fields,
    }).toString(),
  };
};
const credentials = 'username=demo&password=demo-password';
const tokenRequest: BenchRequest = {
  method: 'POST',
  path: '/rest-api/auth/token.do',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: credentials,
};
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i).join(',');

export const DELIVERY_OPERATION = 'delivery batch, 10,000 events in 100 messages over 50 banners';

/** The limit record the DELETE operation removes, set again. */
const recreateCampaignLimit = async (service: LocalService) => {
  const response = await send(service, form('/rest-api/campaign/101/limits/set.do', { dailyClicksLimit: '5' }));
  await response.arrayBuffer();
};

export const BENCH_OPERATIONS: BenchOperation[] = [
  {
    name: 'token.do',
    floor: 3,
    why: 'username → user id, the profile (hash, active, role), the token write',
    request: () => tokenRequest,
  },
  {
    name: 'login.do',
    floor: 3,
    why: 'consume the token (conditional delete), the user (a token dies with a password reset or a deactivation), write the session',
    prepare: async (service) => ((await (await send(service, tokenRequest)).json()) as { authToken: string }).authToken,
    request: (token) => ({ method: 'GET', path: `/rest-api/auth/${String(token)}/login.do?json=true`, headers: {} }),
  },
  {
    name: 'limit read',
    floor: 4,
    why: "API key → user and profile (2, authorizer); the user's shares and permissions (1); entity, record and current buckets (1)",
    request: () => get('/rest-api/campaign/100/limits.do'),
  },
  {
    name: 'set.do (existing record)',
    floor: 5,
    why: 'authorizer 2, shares 1, entity/record/buckets/history version 1, one transaction: the conditional put and the history entry 1',
    prepare: (service) => send(service, form('/rest-api/campaign/100/limits/set.do', { dailyClicksLimit: '99' })),
    restore: restorePartitions('CAMPAIGN#100'),
    request: (_, i) => form('/rest-api/campaign/100/limits/set.do', { dailyClicksLimit: String(100 + (i % 50)) }),
  },
  {
    name: 'set.do signed in the form body',
    floor: 7,
    why: "as set.do without the authorizer's 2, plus the user and its hash verifier 2, the partner's quota counter 1 and the replay guard 1",
    request: (_, i) => signedForm('/rest-api/campaign/100/limits/set.do', { dailyClicksLimit: String(200 + i) }),
  },
  {
    name: 'update.do',
    floor: 5,
    why: 'as set.do',
    restore: restorePartitions('CAMPAIGN#100'),
    request: (_, i) => form('/rest-api/campaign/100/limits/update.do', { weeklyClicksLimit: String(1000 + (i % 50)) }),
  },
  {
    name: 'reset.do',
    floor: 4,
    why: 'authorizer 2, shares 1, entity and record 1 (the reset itself goes to SQS)',
    request: () => form('/rest-api/campaign/100/limits/reset.do', { limitCounters: 'DAILY_CLICKS' }),
  },
  {
    name: 'DELETE limits.do',
    floor: 5,
    why: 'authorizer 2, shares 1, entity, record and history version 1, one transaction: the record, its counters and the history entry 1',
    prepare: (service) => recreateCampaignLimit(service),
    restore: restorePartitions('CAMPAIGN#101'),
    request: () => ({ method: 'DELETE', path: '/rest-api/campaign/101/limits.do', headers }),
  },
  {
    name: 'per-action list',
    floor: 5,
    why: 'authorizer 2, shares 1, the entity 1 and, at once, one query of its per-action records, switch and counters 1 (a query of the whole partition would read its change history too)',
    request: () => get('/rest-api/per-action/limits/CAMPAIGN/100.do'),
  },
  {
    name: 'per-action add (existing)',
    floor: 5,
    why: "authorizer 2, shares 1, entity, action, record, switch and the answer's counters in one batch 1, the conditional write 1",
    prepare: (service) =>
      send(
        service,
        form('/rest-api/per-action/add/limit/CAMPAIGN/100.do', { actionId: '7', dailyConversionsLimit: '60' }),
      ),
    restore: restorePartitions('CAMPAIGN#100'),
    request: (_, i) =>
      form('/rest-api/per-action/add/limit/CAMPAIGN/100.do', {
        actionId: '7',
        dailyConversionsLimit: String(1 + (i % 50)),
      }),
  },
  {
    name: 'campaign bulk read, 100 ids',
    floor: 6,
    why: 'authorizer 2, shares 1, 300 entity, record and counter keys in 3 batches at once',
    request: () => get(`/rest-api/campaign/limits.do?campaignIds=${range(100_001, 100)}`),
  },
  {
    name: 'campaign bulk read, 10,000 (ids omitted)',
    floor: 204,
    why: "authorizer 2, shares 1, the advertisers' campaigns from the parent index (1 page each, more for 10,000), 20,000 record and counter keys in 200 batches",
    request: () => get('/rest-api/campaign/limits.do'),
  },
  {
    name: 'banner bulk read, 100 ids',
    floor: 6,
    why: 'as the campaign bulk read of 100',
    request: () => get(`/rest-api/banners/limits.do?bannerIds=${range(200_001, BENCH_BANNERS)}`),
  },
  {
    name: DELIVERY_OPERATION,
    floor: 104,
    why: "50 banners in 50 campaigns of 1 advertiser: their ancestry 1, the 101 entities' caps 2 (100 keys a batch), one conditional update per entity's counter item 101",
    request: () => ({
      method: 'POST',
      path: '/_local/delivery',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: deliveryMessages('requests') }),
    }),
  },
];
