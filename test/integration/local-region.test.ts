import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalService } from '../../infra/local/local-service';
import { apiClient, importCatalog } from '../support/http';
import { startTestService } from '../support/local-service';

/**
 * A region in the environment, as an AWS engineer's shell often has one: DynamoDB Local keeps a database for each
 * access key and region, and the table stream's reader must read the one the table is in.
 */
let service: LocalService;

beforeAll(async () => {
  const region = process.env.AWS_REGION;
  process.env.AWS_REGION = 'eu-west-1';
  try {
    service = await startTestService({ catalogFile: null });
  } finally {
    if (region === undefined) delete process.env.AWS_REGION;
    else process.env.AWS_REGION = region;
  }
  await importCatalog(service.url, {
    advertisers: [{ id: 71 }],
    campaigns: [{ id: 710, advertiserId: 71 }],
    users: [
      {
        id: 98,
        username: 'region',
        password: 'region-password',
        role: 'NETWORK',
        apiKeys: ['region-key-0001'],
        permissions: { 'Manage Capping & Limitations': 'ENABLED', 'Daily Clicks Limit': 'ENABLED' },
        access: [{ type: 'ADVERTISER', id: 71, level: 'UPDATE' }],
      },
    ],
  });
});

afterAll(() => service?.stop());

describe('the local service with AWS_REGION set to another region than the default', () => {
  it('starts, and reads its table stream: a limit change is told', async () => {
    const caller = apiClient(service.url, 'region-key-0001');
    expect((await caller.post('/rest-api/campaign/710/limits/set.do', { dailyClicksLimit: '5' })).status).toBe(200);
    const changes = (await (await fetch(`${service.url}/_local/limit-changes`)).json()) as { entityId: number }[];
    expect(changes.map((change) => change.entityId)).toEqual([710]);
  });
});
