import type { LocalService } from '../infra/local/local-service';
import { API_KEY, BENCH_BANNERS } from './bench-service';
import { deliveryMessages } from './throughput';

export interface BenchOperation {
  name: string;
  /** The fewest DynamoDB requests the data model allows for it, with the reasoning. */
  floor: number;
  why: string;
  /** Work that must happen first and is not measured (a fresh login token). */
  prepare?: (service: LocalService) => Promise<unknown>;
  run: (service: LocalService, prepared: unknown, iteration: number) => Promise<Response>;
}

const headers = { 'X-Api-Key': API_KEY };
const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields),
});
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i).join(',');

export const DELIVERY_OPERATION = 'delivery batch, 10,000 events in 100 messages over 50 banners';

export const BENCH_OPERATIONS: BenchOperation[] = [
  {
    name: 'token.do',
    floor: 3,
    why: 'username → user id, the profile (hash, active, role), the token write',
    run: (service) =>
      fetch(`${service.url}/rest-api/auth/token.do`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'username=demo&password=demo-password',
      }),
  },
  {
    name: 'login.do',
    floor: 3,
    why: 'consume the token (conditional delete), the user (a token dies with a password reset or a deactivation), write the session',
    prepare: async (service) =>
      (
        (await (
          await fetch(`${service.url}/rest-api/auth/token.do`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: 'username=demo&password=demo-password',
          })
        ).json()) as { authToken: string }
      ).authToken,
    run: (service, token) => fetch(`${service.url}/rest-api/auth/${token}/login.do?json=true`),
  },
  {
    name: 'limit read',
    floor: 4,
    why: "API key → user and profile (2, authorizer); the user's shares and permissions (1); entity, record and current buckets (1)",
    run: (service) => fetch(`${service.url}/rest-api/campaign/100/limits.do`, { headers }),
  },
  {
    name: 'set.do (existing record)',
    floor: 5,
    why: 'authorizer 2, shares 1, entity/record/buckets 1, the conditional put 1',
    prepare: (service) => fetch(`${service.url}/rest-api/campaign/100/limits/set.do`, form({ dailyClicksLimit: '99' })),
    run: (service, _, i) =>
      fetch(`${service.url}/rest-api/campaign/100/limits/set.do`, form({ dailyClicksLimit: String(100 + (i % 50)) })),
  },
  {
    name: 'update.do',
    floor: 5,
    why: 'as set.do',
    run: (service, _, i) =>
      fetch(
        `${service.url}/rest-api/campaign/100/limits/update.do`,
        form({ weeklyClicksLimit: String(1000 + (i % 50)) }),
      ),
  },
  {
    name: 'reset.do',
    floor: 4,
    why: 'authorizer 2, shares 1, entity and record 1 (the reset itself goes to SQS)',
    run: (service) =>
      fetch(`${service.url}/rest-api/campaign/100/limits/reset.do`, form({ limitCounters: 'DAILY_CLICKS' })),
  },
  {
    name: 'per-action list',
    floor: 5,
    why: 'authorizer 2, shares 1, the entity and its per-action records (a partition query could fetch both, but would read old counter buckets) 1, their counters 1',
    run: (service) => fetch(`${service.url}/rest-api/per-action/limits/CAMPAIGN/100.do`, { headers }),
  },
  {
    name: 'per-action add (existing)',
    floor: 5,
    why: "authorizer 2, shares 1, entity, action and record in one batch 1, the conditional write 1 (the answer's counters add 1)",
    prepare: (service) =>
      fetch(
        `${service.url}/rest-api/per-action/add/limit/CAMPAIGN/100.do`,
        form({ actionId: '7', dailyConversionsLimit: '60' }),
      ),
    run: (service, _, i) =>
      fetch(
        `${service.url}/rest-api/per-action/add/limit/CAMPAIGN/100.do`,
        form({ actionId: '7', dailyConversionsLimit: String(1 + (i % 50)) }),
      ),
  },
  {
    name: 'campaign bulk read, 100 ids',
    floor: 6,
    why: 'authorizer 2, shares 1, 300 entity, record and counter keys in 3 batches at once',
    run: (service) =>
      fetch(`${service.url}/rest-api/campaign/limits.do?campaignIds=${range(100_001, 100)}`, { headers }),
  },
  {
    name: 'campaign bulk read, 10,000 (ids omitted)',
    floor: 204,
    why: "authorizer 2, shares 1, the advertisers' campaigns from the parent index (1 page each, more for 10,000), 20,000 record and counter keys in 200 batches",
    run: (service) => fetch(`${service.url}/rest-api/campaign/limits.do`, { headers }),
  },
  {
    name: 'banner bulk read, 100 ids',
    floor: 6,
    why: 'as the campaign bulk read of 100',
    run: (service) =>
      fetch(`${service.url}/rest-api/banners/limits.do?bannerIds=${range(200_001, BENCH_BANNERS)}`, { headers }),
  },
  {
    name: DELIVERY_OPERATION,
    floor: 104,
    why: "50 banners in 50 campaigns of 1 advertiser: their ancestry 1, the 101 entities' caps 2 (100 keys a batch), one conditional update per entity's counter item 101",
    run: (service) =>
      fetch(`${service.url}/_local/delivery`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: deliveryMessages('requests') }),
      }),
  },
];
