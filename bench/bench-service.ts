import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_CATALOG_FILE } from '../infra/local/demo-catalog-file';
import { startLocalService, type LocalService } from '../infra/local/local-service';

export const BENCH_ADVERTISER = 500;
export const BENCH_CAMPAIGNS = 10_000;
export const BENCH_BANNERS = 100;
export const API_KEY = 'demo-key-0001';
/** The sharded-read measure's advertiser, apart, so that its many message groups leave no markers on the others. */
export const SHARDED_ADVERTISER = 501;
/** Its campaigns 110,001–110,003, each with one banner (210,001–210,003). */
export const SHARDED_CAMPAIGNS = [110_001, 110_002, 110_003];
const shardedBanner = (campaignId: number) => campaignId + 100_000;

/**
 * The local service on its own DynamoDB Local, with the demo catalog plus 10,000 campaigns and 100 banners under
 * one advertiser the demo user shares; every one of them with a limit, written straight to the table.
 */
export const startBenchService = async (): Promise<LocalService> => {
  const demo = JSON.parse(readFileSync(DEMO_CATALOG_FILE, 'utf8'));
  const catalog = {
    ...demo,
    users: demo.users.map((user: { username: string; access: unknown[] }) =>
      user.username === 'demo'
        ? {
            ...user,
            access: [
              ...user.access,
              ...[BENCH_ADVERTISER, SHARDED_ADVERTISER].map((id) => ({ type: 'ADVERTISER', id, level: 'UPDATE' })),
            ],
          }
        : user,
    ),
    advertisers: [...demo.advertisers, { id: BENCH_ADVERTISER }, { id: SHARDED_ADVERTISER }],
    campaigns: [
      ...demo.campaigns,
      ...Array.from({ length: BENCH_CAMPAIGNS }, (_, i) => ({ id: 100_001 + i, advertiserId: BENCH_ADVERTISER })),
      ...SHARDED_CAMPAIGNS.map((id) => ({ id, advertiserId: SHARDED_ADVERTISER })),
    ],
    banners: [
      ...demo.banners,
      ...Array.from({ length: BENCH_BANNERS }, (_, i) => ({ id: 200_001 + i, campaignId: 100_001 + (i % 50) })),
      ...SHARDED_CAMPAIGNS.map((campaignId) => ({ id: shardedBanner(campaignId), campaignId })),
    ],
  };
  const file = join(tmpdir(), `bench-service-catalog-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(catalog));
  const service = await startLocalService({ port: 0, catalogFile: file, signRequests: true });
  const limit = (type: string, id: number) => ({
    PK: `${type}#${id}`,
    SK: 'LIMIT',
    id: 1_000_000 + id,
    entityType: type,
    entityId: id,
    caps: { dailyImpressionsLimit: 1000, totalBudgetLimit: 500.5 },
    evenPacing: false,
    useLocalTime: false,
    timezoneOffset: 0,
    version: 1,
    startDate: Date.UTC(2026, 11, 1),
  });
  const items = [
    ...Array.from({ length: BENCH_CAMPAIGNS }, (_, i) => limit('CAMPAIGN', 100_001 + i)),
    ...Array.from({ length: BENCH_BANNERS }, (_, i) => limit('BANNER', 200_001 + i)),
    ...SHARDED_CAMPAIGNS.flatMap((id) => [limit('CAMPAIGN', id), limit('BANNER', shardedBanner(id))]),
  ];
  await service.dependencies.store.batchWrite(items);
  return service;
};
