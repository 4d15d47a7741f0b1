import { ServiceBusy, WriteConflict } from '../../domain/errors';
import { MAX_SUBSCRIPTIONS_PER_USER } from '../../domain/webhooks/subscription-cap';
import type {
  WebhookEntityFilter,
  WebhookEventKind,
  WebhookSecret,
  WebhookSubscription,
} from '../../domain/webhooks/subscription';
import type { WebhookAttemptOutcome, WebhookSubscriptions, WrittenWith } from '../../ports/webhook-subscriptions';
import type { TransactItem } from './attribute-values';
import {
  WEBHOOK_SUBSCRIPTIONS_BELOW,
  WEBHOOKS_PK,
  webhookCountKey,
  webhookIdKey,
  webhookKey,
  webhookOwnerPrefix,
  type ItemKey,
} from '../../table/keys';
import {
  anyOf,
  attributeAbsent,
  attributeExists,
  below,
  conditionExpression,
  keyConditionExpression,
  UpdateBuilder,
} from './expressions';
import type { Item, TableStore } from './table-store';

/** The stored item of a subscription: the failure run is kept in two top-level attributes, so one update extends it. */
const subscriptionItem = (subscription: WebhookSubscription): Item => {
  const { failureRun, ...rest } = subscription;
  return {
    ...webhookKey(subscription.userId, subscription.id),
    ...rest,
    ...(failureRun ? { failureSince: failureRun.since, failureAttempts: failureRun.attempts } : {}),
  };
};

const secretOf = (item: Item): WebhookSecret => ({
  value: String(item.value),
  createdAt: String(item.createdAt),
  ...(item.expiresAt !== undefined ? { expiresAt: String(item.expiresAt) } : {}),
});

const subscriptionFromItem = (item: Item): WebhookSubscription => ({
  id: String(item.id),
  userId: Number(item.userId),
  url: String(item.url),
  events: (item.events as string[]).map((kind) => kind as WebhookEventKind),
  entities: ((item.entities as Item[] | undefined) ?? []).map((entity): WebhookEntityFilter => ({
    entityType: entity.entityType as WebhookEntityFilter['entityType'],
    entityId: Number(entity.entityId),
  })),
  secrets: (item.secrets as Item[]).map(secretOf),
  status: item.status === 'disabled' ? 'disabled' : 'active',
  ...(item.disabledReason !== undefined ? { disabledReason: String(item.disabledReason) } : {}),
  ...(item.failureSince !== undefined
    ? { failureRun: { since: String(item.failureSince), attempts: Number(item.failureAttempts ?? 0) } }
    : {}),
  createdAt: String(item.createdAt),
});

const newestFirst = (a: WebhookSubscription, b: WebhookSubscription): number =>
  b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id);

const exists = conditionExpression(attributeExists('PK'));

/**
 * Subscriptions in the table's `WEBHOOKS` partition: each under `<userId>#<id>`, beside an `ID#<id>` item naming
 * its owner (the dispatcher knows the id alone) and a `COUNT#<userId>` item that keeps the per-user cap exact
 * under concurrent creates.
 */
export class DynamoDbWebhookStore implements WebhookSubscriptions<TransactItem> {
  constructor(private readonly store: TableStore) {}

  async create(subscription: WebhookSubscription, written: WrittenWith<TransactItem> = {}): Promise<void> {
    const { tableName } = this.store;
    const count = new UpdateBuilder()
      .add('count', 1)
      .require(anyOf(attributeAbsent('count'), below('count', MAX_SUBSCRIPTIONS_PER_USER)))
      .build();
    await this.transact(
      [
        this.store.insertItem(subscriptionItem(subscription)),
        this.store.insertItem({ ...webhookIdKey(subscription.id), userId: subscription.userId }),
        { Update: { TableName: tableName, Key: webhookCountKey(subscription.userId), ...count } },
      ],
      written,
    );
  }

  async listOwn(userId: number): Promise<WebhookSubscription[]> {
    const items = await this.store.queryPartition(WEBHOOKS_PK, webhookOwnerPrefix(userId));
    return items.map(subscriptionFromItem).sort(newestFirst);
  }

  async getOwn(userId: number, id: string): Promise<WebhookSubscription | undefined> {
    const item = await this.store.get(webhookKey(userId, id));
    return item && subscriptionFromItem(item);
  }

  async delete(userId: number, id: string, written: WrittenWith<TransactItem> = {}): Promise<boolean> {
    const { tableName } = this.store;
    const count = new UpdateBuilder().add('count', -1).build();
    return this.unlessAbsent(() =>
      this.transact(
        [
          { Delete: { TableName: tableName, Key: webhookKey(userId, id), ...exists } },
          { Delete: { TableName: tableName, Key: webhookIdKey(id) } },
          { Update: { TableName: tableName, Key: webhookCountKey(userId), ...count } },
        ],
        written,
      ),
    );
  }

  async replaceSecrets(
    userId: number,
    id: string,
    secrets: WebhookSecret[],
    written: WrittenWith<TransactItem> = {},
  ): Promise<boolean> {
    const update = new UpdateBuilder().set('secrets', secrets).require(attributeExists('PK'));
    return this.unlessAbsent(() => this.updateOwn(webhookKey(userId, id), update, written));
  }

  async enable(userId: number, id: string, written: WrittenWith<TransactItem> = {}): Promise<boolean> {
    const update = new UpdateBuilder()
      .set('status', 'active')
      .remove('disabledReason')
      .remove('failureSince')
      .remove('failureAttempts')
      .require(attributeExists('PK'));
    return this.unlessAbsent(() => this.updateOwn(webhookKey(userId, id), update, written));
  }

  /** One paged query of the partition: subscriptions are few (at most ten per user). */
  async listActive(): Promise<WebhookSubscription[]> {
    const items = await this.store.query({
      ...keyConditionExpression('PK', WEBHOOKS_PK, below('SK', WEBHOOK_SUBSCRIPTIONS_BELOW)),
      ConsistentRead: true,
    });
    return items.map(subscriptionFromItem).filter((subscription) => subscription.status === 'active');
  }

  async recordAttempt(id: string, outcome: WebhookAttemptOutcome): Promise<WebhookSubscription | undefined> {
    const update = new UpdateBuilder().require(attributeExists('PK'));
    if (outcome.ok) update.remove('failureSince').remove('failureAttempts');
    else update.setIfAbsent('failureSince', outcome.at.toISOString()).add('failureAttempts', 1);
    return this.updateById(id, update);
  }

  async disable(id: string, reason: string): Promise<void> {
    await this.updateById(
      id,
      new UpdateBuilder().set('status', 'disabled').set('disabledReason', reason).require(attributeExists('PK')),
    );
  }

  /** Updates a subscription known by its id alone; undefined when it is gone (deleted meanwhile). */
  private async updateById(id: string, update: UpdateBuilder): Promise<WebhookSubscription | undefined> {
    const owner = await this.store.get(webhookIdKey(id));
    if (!owner) return undefined;
    const key: ItemKey = webhookKey(Number(owner.userId), id);
    try {
      const item = await this.store.update({ Key: key, ...update.build(), ReturnValues: 'ALL_NEW' });
      return item && subscriptionFromItem(item);
    } catch (error) {
      if (error instanceof WriteConflict) return undefined;
      throw error;
    }
  }

  /** One update of an owned subscription; in a transaction only when something is written alongside it. */
  private async updateOwn(key: ItemKey, update: UpdateBuilder, written: WrittenWith<TransactItem>): Promise<void> {
    if (!written.alongside?.length) await this.store.update({ Key: key, ...update.build() });
    else await this.transact([{ Update: { TableName: this.store.tableName, Key: key, ...update.build() } }], written);
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
