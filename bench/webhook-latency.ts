import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { LocalService } from '../infra/local/local-service';
import { importCatalog } from '../shared/catalog/catalog-import';
import { clearWarmCaches } from '../shared/support/warm-cache';
import { percentile } from './percentile';

/** An advertiser of its own, one campaign, a banner per crossing, each capped at one impression a day. */
const ADVERTISER = 900_000;
const CAMPAIGN = 900_001;
const FIRST_BANNER = 900_101;
const SUBSCRIBER = 9_001;

export interface WebhookLatency {
  crossings: number;
  /** From posting the counting write to the stream consumer publishing its LimitReached (ms). */
  streamP50: number;
  streamP99: number;
  /** From posting the counting write to the partner's endpoint receiving the signed delivery (ms). */
  webhookP50: number;
  webhookP99: number;
}

const percentileMs = (values: number[], p: number): number => Math.round(percentile(values, p) * 10) / 10;

const prepare = async (service: LocalService, crossings: number, url: string) => {
  const banners = Array.from({ length: crossings }, (_, i) => FIRST_BANNER + i);
  await importCatalog(service.dependencies.store, {
    advertisers: [{ id: ADVERTISER }],
    campaigns: [{ id: CAMPAIGN, advertiserId: ADVERTISER }],
    banners: banners.map((id) => ({ id, campaignId: CAMPAIGN })),
    users: [
      {
        ...{ id: SUBSCRIBER, username: 'bench-webhooks', password: 'bench-webhooks-password', role: 'NETWORK' },
        permissions: { 'Manage Capping & Limitations': 'ENABLED', 'Daily Impressions Limit': 'ENABLED' },
        access: [{ type: 'ADVERTISER', id: ADVERTISER, level: 'UPDATE' }],
      },
    ],
  });
  const limit = (id: number) => ({
    ...{ PK: `BANNER#${id}`, SK: 'LIMIT', id: 3_000_000 + id, entityType: 'BANNER', entityId: id },
    ...{ caps: { dailyImpressionsLimit: 1 }, evenPacing: false, useLocalTime: false, timezoneOffset: 0, version: 1 },
  });
  await service.dependencies.store.batchWrite(banners.map(limit));
  const now = new Date().toISOString();
  await service.dependencies.webhooks.create({
    ...{ id: 'whk_bench', userId: SUBSCRIBER, url, events: ['limit.reached'], status: 'active', createdAt: now },
    ...{ activeSince: now, version: 0 },
    entities: [{ entityType: 'ADVERTISER', entityId: ADVERTISER }],
    secrets: [{ value: `whsec_${randomBytes(32).toString('base64')}`, createdAt: now }],
  });
  clearWarmCaches();
  return banners;
};

/**
 * One crossing at a time: the delivery post that counts it, then the moments the stream consumer publishes its
 * LimitReached and a receiver on this machine gets the signed webhook. Locally the table stream is read once the
 * delivery post has counted (as the local server drains it), and the dispatcher takes the event at once.
 */
export const measureWebhookLatency = async (service: LocalService, crossings: number): Promise<WebhookLatency> => {
  const arrived = new Map<string, number>();
  const receiver = createServer((request, response) => {
    arrived.set(String(request.headers['webhook-id']).split('/')[0]!, performance.now());
    request.resume();
    response.end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const published = new Map<string, number>();
  const publish = service.events.publishLimitReached.bind(service.events);
  service.events.publishLimitReached = async (events) => {
    for (const event of events) published.set(event.entity, performance.now());
    await publish(events);
  };
  try {
    const banners = await prepare(service, crossings, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`);
    const stream: number[] = [];
    const webhook: number[] = [];
    for (const banner of banners) {
      const entity = `BANNER#${banner}`;
      const started = performance.now();
      await fetch(`${service.url}/_local/delivery`, {
        method: 'POST',
        body: JSON.stringify([{ kind: 'impression', bannerId: banner, count: 1 }]),
      }).then((response) => response.arrayBuffer());
      for (let waited = 0; !arrived.has(entity) && waited < 10_000; waited += 5)
        await new Promise((resolve) => setTimeout(resolve, 5));
      if (!arrived.has(entity) || !published.has(entity)) throw new Error(`no webhook for ${entity}`);
      stream.push(published.get(entity)! - started);
      webhook.push(arrived.get(entity)! - started);
    }
    return {
      crossings: banners.length,
      ...{ streamP50: percentileMs(stream, 50), streamP99: percentileMs(stream, 99) },
      ...{ webhookP50: percentileMs(webhook, 50), webhookP99: percentileMs(webhook, 99) },
    };
  } finally {
    service.events.publishLimitReached = publish;
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
};
