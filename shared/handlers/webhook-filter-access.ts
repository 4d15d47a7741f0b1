import { entityFromItem, grantsOf } from '../adapters/dynamodb/grants-store';
import { levelOfType } from '../domain/levels';
import { levelPolicy } from '../domain/limits/level-policy';
import type { WebhookEntityFilter } from '../domain/webhooks/subscription';
import type { Ports } from '../runtime/dependencies';
import { entityKey, itemKeyText, type ItemKey } from '../table/keys';
import { enforce, requireUpdatableEntity } from './access-checks';

/**
 * Each filter entity must be one the caller may read, checked as a read of its limit checks it (404, then 403 for
 * access, then 403 for the level's permission), so that a filter tells no more than a read would.
 */
export const requireReadableFilters = async (
  { store, clock }: Ports<'store' | 'clock'>,
  userId: number,
  entities: readonly WebhookEntityFilter[],
): Promise<void> => {
  if (entities.length === 0) return;
  const keys = entities.map(({ entityType, entityId }) => entityKey(entityType, entityId));
  const [grants, items] = await Promise.all([grantsOf({ store, clock }, userId), store.batchGet(keys)]);
  const stored = new Map(items.map((item) => [itemKeyText(item as ItemKey), item]));
  entities.forEach(({ entityType, entityId }, index) => {
    requireUpdatableEntity(grants, entityType, entityId, entityFromItem(stored.get(itemKeyText(keys[index]!))));
    enforce(levelPolicy(levelOfType(entityType).level).read(grants));
  });
};
