import { createRecorder } from '../functions/delivery-recorder/handler';
import type { LocalService } from '../infra/local/local-service';
import { setShardCount } from '../shared/adapters/dynamodb/shard-count-change';
import { API_KEY, SHARDED_CAMPAIGNS } from './bench-service';
import { roundTrips, type recordRequests } from './request-recorder';
import { percentile } from './percentile';

/** The sharded-read advertiser's three campaigns (each with its banner): one unsharded, one in 16 shards, one in 96. */
const ENTITIES = [1, 16, 96].map((shards, index) => ({
  campaignId: SHARDED_CAMPAIGNS[index]!,
  bannerId: SHARDED_CAMPAIGNS[index]! + 100_000,
  shards,
}));
/** Enough message groups that every shard of 96 has writes (~4 groups a shard). */
const GROUPS = 384;
const READS = 100;

export interface ShardedReadCost {
  shards: number;
  /** Counter items the entity has (shards written). */
  counterItems: number;
  warmRequests: number;
  warmRoundTrips: number;
  p50Ms: number;
  p99Ms: number;
}

/** One message per group, each of 10 impressions of the banner: every shard of the campaign takes some. */
const deliveries = (bannerId: number) =>
  Array.from({ length: GROUPS / 8 }, (_, batch) => ({
    Records: Array.from({ length: 8 }, (_, i) => ({
      messageId: `sharded-${bannerId}-${batch * 8 + i}`,
      body: JSON.stringify([{ kind: 'impression', bannerId, count: 10 }]),
      attributes: { MessageGroupId: `feed-${batch * 8 + i}`, SequenceNumber: '1', SentTimestamp: String(Date.now()) },
    })),
  })) as never[];

/**
 * A sharded entity's warm limit read beside an unsharded one's: the requests a warm container sends (LIMIT,
 * history head and every shard in one round of BatchGetItem) and the latency of the whole call through the local
 * stack, after the entity's counters were written by 384 message groups.
 */
export const measureShardedRead = async (
  service: LocalService,
  recorder: ReturnType<typeof recordRequests>,
): Promise<ShardedReadCost[]> => {
  const { store } = service.dependencies;
  const record = createRecorder(service.dependencies);
  const read = (campaignId: number) =>
    fetch(`${service.url}/rest-api/campaign/${campaignId}/limits.do`, { headers: { 'X-Api-Key': API_KEY } }).then(
      (answer) => answer.json(),
    );
  const costs: ShardedReadCost[] = [];
  for (const { campaignId, bannerId, shards } of ENTITIES) {
    if (shards > 1) await setShardCount(store, 'CAMPAIGN', campaignId, shards);
    for (const batch of deliveries(bannerId)) await record(batch);
    // the table stream's consumer judges the writes (it reads the shards): drained, so that the reads run alone
    await fetch(`${service.url}/_local/events`);
    await read(campaignId);
    const warm = await recorder.during(() => read(campaignId));
    const latencies: number[] = [];
    for (let i = 0; i < READS; i++) {
      const started = performance.now();
      await read(campaignId);
      latencies.push(performance.now() - started);
    }
    const items = await store.queryPartition(`CAMPAIGN#${campaignId}`, 'COUNTERS');
    costs.push({
      shards,
      counterItems: items.length,
      warmRequests: warm.filter((command) => command.clientName === 'DynamoDBClient').length,
      warmRoundTrips: roundTrips(warm),
      p50Ms: Math.round(percentile(latencies, 50) * 100) / 100,
      p99Ms: Math.round(percentile(latencies, 99) * 100) / 100,
    });
  }
  return costs;
};

/** Measures and prints (section 5b of the bench). */
export const reportShardedRead = async (service: LocalService, recorder: ReturnType<typeof recordRequests>) => {
  const costs = await measureShardedRead(service, recorder);
  console.log("5b. A sharded entity's warm limit read, beside an unsharded one's (100 reads each, ms)");
  console.table(
    costs.map((cost) => ({
      shards: cost.shards,
      'counter items': cost.counterItems,
      'warm requests': cost.warmRequests,
      'round trips': cost.warmRoundTrips,
      p50: cost.p50Ms,
      p99: cost.p99Ms,
    })),
  );
  return costs;
};
