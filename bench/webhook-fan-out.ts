import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import type { LocalService } from '../infra/local/local-service';
import { importCatalog } from '../shared/catalog/catalog-import';
import { hashPassword } from '../shared/domain/auth/crypto';
import { ExactNumber } from '../shared/domain/delivery/exact-units';
import type { WebhookSubscription } from '../shared/domain/webhooks/subscription';
import { newWebhookId } from '../shared/domain/webhooks/webhook-id';
import type { WebhookEvent } from '../shared/domain/webhooks/webhook-event';
import { inParallel } from '../shared/support/concurrency';
import type { WebhookDelivery } from '../shared/ports/webhook-deliveries';
import { fanOut } from '../shared/webhooks/fan-out';

export interface FanOutMeasure {
  subscriptions: number;
  matching: number;
  /** Read units the fan-out of one event consumed, as DynamoDB Local reports them. */
  readUnits: number;
  requests: number;
}

const USERS = 1_000;
const PER_USER = 10;
/** Each advertiser is shared with four users; each has ten campaigns, each a banner. */
const ADVERTISERS = 250;
const CAMPAIGNS_EACH = 10;
const FIRST_USER = 800_001;
const FIRST_ADVERTISER = 800_001;
const campaignOf = (advertiser: number, index: number) => advertiser * 100 + index;
const bannerOf = (campaign: number) => campaign * 10;

/** A user's ten subscriptions: on its advertiser's campaigns in turn; two of them on nothing, one on the advertiser. */
const subscriptionsOf = (userId: number, advertiser: number, at: string): WebhookSubscription[] =>
  Array.from({ length: PER_USER }, (_, index) => ({
    id: newWebhookId(),
    userId,
    url: `https://partner-${userId}.example/hooks/${index}`,
    events: ['limit.reached', 'limit.changed'],
    entities:
      index < 2
        ? []
        : index === 2
          ? [{ entityType: 'ADVERTISER', entityId: advertiser }]
          : index < 5
            ? [
                {
                  entityType: index === 3 ? 'CAMPAIGN' : 'BANNER',
                  entityId: index === 3 ? campaignOf(advertiser, 0) : bannerOf(campaignOf(advertiser, 0)),
                },
              ]
            : [{ entityType: 'CAMPAIGN', entityId: campaignOf(advertiser, index) }],
    secrets: [{ value: `whsec_${Buffer.alloc(32, userId % 251).toString('base64')}`, createdAt: at }],
    status: 'active',
    createdAt: at,
    activeSince: at,
    version: 0,
  }));

const prepare = async (service: LocalService) => {
  const advertisers = Array.from({ length: ADVERTISERS }, (_, index) => FIRST_ADVERTISER + index);
  const campaigns = advertisers.flatMap((advertiser) =>
    Array.from({ length: CAMPAIGNS_EACH }, (_, index) => ({
      id: campaignOf(advertiser, index),
      advertiserId: advertiser,
    })),
  );
  const users = Array.from({ length: USERS }, (_, index) => ({
    id: FIRST_USER + index,
    username: `fan-out-${index}`,
    password: 'fan-out-password',
    access: [{ type: 'ADVERTISER', id: advertisers[index % ADVERTISERS]!, level: 'UPDATE' }],
  }));
  // the users never sign in: one hash serves them all, rather than a thousand at scrypt's cost
  const hash = await hashPassword('fan-out-password');
  const imported = await importCatalog(
    service.dependencies.store,
    {
      advertisers: advertisers.map((id) => ({ id })),
      campaigns,
      banners: campaigns.map(({ id }) => ({ id: bannerOf(id), campaignId: id })),
      users,
    },
    { hashUserPassword: async () => hash },
  );
  if (!imported.ok) throw new Error(`fan-out catalog refused: ${JSON.stringify(imported.problems)}`);
  const at = service.clock.now().toISOString();
  const all = users.flatMap((user) => subscriptionsOf(user.id, user.access[0]!.id, at));
  await inParallel(all, 16, (subscription) => service.dependencies.webhooks.create(subscription));
  return { subscriptions: all.length, advertiser: advertisers[0]! };
};

/**
 * The read units one fan-out takes in a network of 10,000 subscriptions over 1,000 users: a crossing of a banner of
 * an advertiser four users share, twenty of whose subscriptions hear of it (two each unfiltered, one on the
 * advertiser, one on the campaign, one on the banner). Every read request the fan-out sends asks for its consumed
 * capacity; the sum is what a fan-out costs whatever the network's size.
 */
export const measureFanOut = async (service: LocalService): Promise<FanOutMeasure> => {
  const { subscriptions, advertiser } = await prepare(service);
  const campaign = campaignOf(advertiser, 0);
  const banner = bannerOf(campaign);
  const event: WebhookEvent = {
    kind: 'limit.reached',
    event: {
      id: `BANNER#${banner}/dailyClicksLimit=10/D#2026-12-01`,
      entity: `BANNER#${banner}`,
      entityType: 'BANNER',
      entityId: banner,
      cap: 'dailyClicksLimit',
      capValue: 10,
      counter: new ExactNumber('10'),
      bucket: 'D#2026-12-01',
      at: service.clock.now().toISOString(),
    },
  };
  let readUnits = 0;
  let requests = 0;
  let measuring = false;
  service.requestTaps.add(
    (next) => async (args) => {
      if (!measuring) return next(args);
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      requests++;
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
      readUnits += [consumed ?? []].flat().reduce((sum, { CapacityUnits }) => sum + (CapacityUnits ?? 0), 0);
      return result;
    },
    { step: 'initialize', name: 'benchFanOutReads' },
  );
  const sent: WebhookDelivery[] = [];
  const { store, webhooks } = service.dependencies;
  const deliveries = {
    send: async (batch: readonly WebhookDelivery[]) => void sent.push(...batch),
    retryAfter: async () => undefined,
    carries: () => false,
  };
  measuring = true;
  try {
    await fanOut(event, { store, subscriptions: webhooks, deliveries });
  } finally {
    measuring = false;
  }
  return { subscriptions, matching: sent.length, readUnits, requests };
};
