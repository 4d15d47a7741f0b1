import { ServiceBusy, WriteConflict } from '../../domain/errors';
import { MAX_SUBSCRIPTIONS_PER_USER } from '../../domain/webhooks/subscription-cap';
import type { WebhookSubscription } from '../../domain/webhooks/subscription';
import { routeOf, type WebhookRoute } from '../../domain/webhooks/subscription-route';
import type { WebhookAttemptOutcome, WebhookSubscriptions, WrittenWith } from '../../ports/webhook-subscriptions';
import type { TransactItem } from './attribute-values';
import { routeAttribute, routesFromItem, storedRoute, subscriptionFromItem, subscriptionItem } from './webhook-items';
import { WEBHOOK_PREFIX, webhookKey, webhookRoutesKey, webhooksPK, type ItemKey } from '../../table/keys';
import {
  anyOf,
  attributeAbsent,
  attributeExists,
  below,
  conditionExpression,
  equals,
  UpdateBuilder,
} from './expressions';
import type { TableStore } from './table-store';

const newestFirst = (a: WebhookSubscription, b: WebhookSubscription): number =>
  b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id);

/** Whether what fan-out matches against differs between two states of a subscription. */
const routeChanged = (read: WebhookSubscription, next: WebhookSubscription): boolean =>
  read.status !== next.status || JSON.stringify(routeOf(read)) !== JSON.stringify(routeOf(next));

/** The owner's changes of `next` over `read`, on condition that `read` is still what is stored. */
const ownerChange = (read: WebhookSubscription, next: WebhookSubscription): UpdateBuilder => {
  const update = new UpdateBuilder()
    .set('url', next.url)
    .set('events', next.events)
    .set('entities', next.entities)
    .set('secrets', next.secrets)
    .set('status', next.status)
    .set('activeSince', next.activeSince)
    .set('version', read.version + 1)
    .require(
      read.version === 0 ? anyOf(attributeAbsent('version'), equals('version', 0)) : equals('version', read.version),
    )
    .require(attributeExists('PK'));
  if (next.disabledReason !== undefined) update.set('disabledReason', next.disabledReason);
  else if (read.disabledReason !== undefined) update.remove('disabledReason');
  if (read.failureRun && !next.failureRun) update.remove('failureSince').remove('failureAttempts');
  return update;
};

/**
 * Subscriptions in their owner's partition (`WEBHOOKS#<userId>`): each in full under `WEBHOOK#<id>`, beside one
 * `ROUTES` item holding how many the user has (the per-user cap, exact under concurrent creates) and the route of
 * each active one. Every write of a subscription that changes what fan-out matches writes both in one transaction,
 * so the routes never lag the subscriptions: a subscription is heard from the moment its write commits.
 */
export class DynamoDbWebhookStore implements WebhookSubscriptions<TransactItem> {
  constructor(private readonly store: TableStore) {}

  async create(subscription: WebhookSubscription, written: WrittenWith<TransactItem> = {}): Promise<void> {
    const routes = new UpdateBuilder()
      .add('count', 1)
      .set('userId', subscription.userId)
      .require(anyOf(attributeAbsent('count'), below('count', MAX_SUBSCRIPTIONS_PER_USER)));
    if (subscription.status === 'active')
      routes.set(routeAttribute(subscription.id), storedRoute(routeOf(subscription)));
    await this.transact(
      [
        this.store.insertItem(subscriptionItem(subscription)),
        this.updateItem(webhookRoutesKey(subscription.userId), routes),
      ],
      written,
    );
  }

  async listOwn(userId: number): Promise<WebhookSubscription[]> {
    const items = await this.store.queryPartition(webhooksPK(userId), WEBHOOK_PREFIX);
    return items.map(subscriptionFromItem).sort(newestFirst);
  }

  async getOwn(userId: number, id: string): Promise<WebhookSubscription | undefined> {
    const item = await this.store.get(webhookKey(userId, id));
    return item && subscriptionFromItem(item);
  }

  async delete(userId: number, id: string, written: WrittenWith<TransactItem> = {}): Promise<boolean> {
    const routes = new UpdateBuilder().add('count', -1).remove(routeAttribute(id)).build();
    return this.unlessAbsent(() =>
      this.transact(
        [
          this.deleteIfPresent(webhookKey(userId, id)),
          { Update: { TableName: this.store.tableName, Key: webhookRoutesKey(userId), ...routes } },
        ],
        written,
      ),
    );
  }

  async change(
    read: WebhookSubscription,
    next: WebhookSubscription,
    written: WrittenWith<TransactItem> = {},
  ): Promise<boolean> {
    const items: TransactItem[] = [this.updateItem(webhookKey(read.userId, read.id), ownerChange(read, next))];
    if (routeChanged(read, next)) items.push(this.routeUpdate(next));
    try {
      await this.transact(items, written);
      return true;
    } catch (error) {
      // a failed condition is a lost race unless the subscription is gone
      if (error instanceof WriteConflict && !(await this.store.get(webhookKey(read.userId, read.id)))) return false;
      throw error;
    }
  }

  /** One read of each user's routes item: small, whatever the user's subscriptions' URLs and secrets. */
  async routesOf(userIds: readonly number[]): Promise<WebhookRoute[]> {
    const items = await this.store.batchGet([...new Set(userIds)].map(webhookRoutesKey));
    return items.flatMap(routesFromItem);
  }

  async recordAttempt(
    read: WebhookSubscription,
    outcome: WebhookAttemptOutcome,
  ): Promise<WebhookSubscription | undefined> {
    if (outcome.ok && !read.failureRun) return read;
    const update = new UpdateBuilder().require(attributeExists('PK'));
    if (outcome.ok) update.remove('failureSince').remove('failureAttempts');
    else update.setIfAbsent('failureSince', outcome.at.toISOString()).add('failureAttempts', 1);
    try {
      const item = await this.store.update({
        Key: webhookKey(read.userId, read.id),
        ...update.build(),
        ReturnValues: 'ALL_NEW',
      });
      return item && subscriptionFromItem(item);
    } catch (error) {
      // deleted meanwhile
      if (error instanceof WriteConflict) return undefined;
      throw error;
    }
  }

  async disable(userId: number, id: string, reason: string): Promise<void> {
    const off = new UpdateBuilder()
      .set('status', 'disabled')
      .set('disabledReason', reason)
      .require(equals('status', 'active'));
    const routes = new UpdateBuilder().remove(routeAttribute(id)).require(attributeExists('PK'));
    // already off or gone: nothing to do
    await this.unlessAbsent(() =>
      this.store.transactWrite({
        TransactItems: [
          this.updateItem(webhookKey(userId, id), off),
          this.updateItem(webhookRoutesKey(userId), routes),
        ],
      }),
    );
  }

  private updateItem(key: ItemKey, update: UpdateBuilder): TransactItem {
    return { Update: { TableName: this.store.tableName, Key: key, ...update.build() } };
  }

  private deleteIfPresent(key: ItemKey): TransactItem {
    return { Delete: { TableName: this.store.tableName, Key: key, ...conditionExpression(attributeExists('PK')) } };
  }

  /** The routes item as `next` leaves it: its route when active, none when off. */
  private routeUpdate(next: WebhookSubscription): TransactItem {
    const update = new UpdateBuilder().require(attributeExists('PK'));
    if (next.status === 'active') update.set(routeAttribute(next.id), storedRoute(routeOf(next)));
    else update.remove(routeAttribute(next.id));
    return this.updateItem(webhookRoutesKey(next.userId), update);
  }

  /**
   * The write and what goes alongside it, all or nothing. An item alongside whose condition fails (the answer's:
   * another invocation took the Idempotency-Key over) is not the subscription's refusal: the caller is told to retry.
   */
  private async transact(items: TransactItem[], { alongside = [] }: WrittenWith<TransactItem>): Promise<void> {
    try {
      await this.store.transactWrite({ TransactItems: [...items, ...alongside] });
    } catch (error) {
      if (error instanceof WriteConflict && error.failedItems?.some((index) => index >= items.length))
        throw new ServiceBusy(error);
      throw error;
    }
  }

  /** True when the write applied; false when its condition found no such subscription. */
  private async unlessAbsent(write: () => Promise<unknown>): Promise<boolean> {
    try {
      await write();
      return true;
    } catch (error) {
      if (error instanceof WriteConflict) return false;
      throw error;
    }
  }
}
