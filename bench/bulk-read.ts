import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inBatches, startServerProcess } from './local-server-process';

export const BULK_CAMPAIGNS = 10_000;
const API_KEY = 'bench-key-000001';

export interface BulkReadResult {
  campaigns: number;
  rowsReturned: number;
  wallMs: number;
  /** The whole local server (DynamoDB client, every family) before the call, and its peak during it. */
  rssBeforeBytes: number;
  peakRssBytes: number;
  responseBytes: number;
}

/** 10,000 campaigns under one advertiser, every one with a limit, read in one call as a partner would. */
export const benchBulkRead = async (): Promise<BulkReadResult> => {
  const file = join(tmpdir(), `bench-catalog-${process.pid}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      users: [
        {
          id: 1,
          username: 'bench',
          password: 'bench-password',
          apiKeys: [API_KEY],
          permissions: {
            'Manage Capping & Limitations': 'ENABLED',
            'Daily Impressions Limit': 'ENABLED',
            Budget: 'ENABLED',
          },
          access: [{ type: 'ADVERTISER', id: 1, level: 'UPDATE' }],
        },
      ],
      advertisers: [{ id: 1 }],
      campaigns: Array.from({ length: BULK_CAMPAIGNS }, (_, index) => ({ id: index + 1, advertiserId: 1 })),
    }),
  );
  const server = await startServerProcess(file);
  try {
    const headers = { 'X-Api-Key': API_KEY, 'content-type': 'application/x-www-form-urlencoded' };
    await inBatches(
      Array.from({ length: BULK_CAMPAIGNS }, (_, index) => index + 1),
      24,
      async (id) => {
        const response = await fetch(`${server.url}/rest-api/campaign/${id}/limits/set.do`, {
          method: 'POST',
          headers,
          body: `dailyImpressionsLimit=${1000 + id}&totalBudgetLimit=${id}.125&startDate=2026-12-01 00:00`,
        });
        if (response.status !== 200)
          throw new Error(`seeding campaign ${id}: ${response.status} ${await response.text()}`);
      },
    );
    server.resetPeak();
    const rssBeforeBytes = server.rss();
    const started = performance.now();
    const response = await fetch(`${server.url}/rest-api/campaign/limits.do`, { headers: { 'X-Api-Key': API_KEY } });
    const text = await response.text();
    const wallMs = performance.now() - started;
    if (response.status !== 200) throw new Error(`bulk read: ${response.status} ${text.slice(0, 200)}`);
    const body = JSON.parse(text) as { limits?: unknown[] };
    return {
      campaigns: BULK_CAMPAIGNS,
      rowsReturned: body.limits?.length ?? 0,
      wallMs,
      rssBeforeBytes,
      peakRssBytes: server.peakRss(),
      responseBytes: text.length,
    };
  } finally {
    await server.stop();
  }
};
