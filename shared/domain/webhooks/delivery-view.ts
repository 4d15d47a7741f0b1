import { permissionLevel, updatableEntity, type Entity, type Grants } from '../access';
import type { LimitReached } from '../delivery/limit-reached';
import type { LimitChanged } from '../history/limit-changed';
import { visibleEntry, type HistoryEntry } from '../history/limit-history';
import { entityName, levelOfType } from '../levels';
import { levelPolicy, type LevelPolicy } from '../limits/level-policy';
import { hiddenReason, reachedReason, type StopReason } from '../serving/serving-decision';
import type { WebhookEvent } from './webhook-event';

/** What the dispatcher knows of a subscription's owner at delivery time: its grants and the entity as stored now. */
export interface Subscriber {
  grants: Grants;
  entity: Entity | undefined;
}

/** The body of one delivery (`data` as the subscriber may see it) and its Standard Webhooks id. */
export interface DeliveryView {
  webhookId: string;
  payload:
    | { type: 'limit.reached'; timestamp: string; data: StopReason }
    | { type: 'limit.changed'; timestamp: string; data: { entity: string; changeId: string; change: HistoryEntry } };
}

/** The policy of the entity's level when the subscriber may read it now as status.do and history.do would. */
const readablePolicy = (subscriber: Subscriber, target: { type: Entity['type']; id: number }) => {
  const policy = levelPolicy(levelOfType(target.type).level);
  const access = updatableEntity(subscriber.grants, target.type, subscriber.entity);
  return access.allowed && policy.read(subscriber.grants).allowed ? policy : undefined;
};

const perActionShown = (policy: LevelPolicy, grants: Grants) =>
  permissionLevel(grants, policy.perActionPermission) !== 'DISABLED';

/**
 * A crossing as status.do would name it to this subscriber: the cap and its counter, or only that the entity
 * stops delivery when its permissions hide the cap. The id of a hidden one is built from what it shows (the
 * crossing's own id names the cap and its value).
 */
const reachedView = (event: LimitReached, policy: LevelPolicy, grants: Grants): DeliveryView => {
  const name = entityName(event.entityType, event.entityId);
  const cap = policy.grid.byName.get(event.cap);
  const shown =
    event.actionId !== undefined
      ? perActionShown(policy, grants)
      : cap !== undefined && policy.capPermission(grants, cap) !== 'DISABLED';
  const timestamp = event.at;
  if (!shown)
    return {
      webhookId: `${name}/hidden@${event.at}`,
      payload: { type: 'limit.reached', timestamp, data: hiddenReason(name) },
    };
  const data = reachedReason({
    entity: name,
    field: event.cap,
    cap: event.capValue,
    counter: event.counter,
    ...(event.actionId !== undefined ? { actionId: event.actionId } : {}),
  });
  return { webhookId: event.id, payload: { type: 'limit.reached', timestamp, data } };
};

/** A change as history.do would show it to this subscriber; none when it would leave the entry out. */
const changedView = (event: LimitChanged, policy: LevelPolicy, grants: Grants): DeliveryView | undefined => {
  const change = visibleEntry(event.change, {
    grid: policy.grid,
    cap: (cap) => policy.capPermission(grants, cap) !== 'DISABLED',
    perAction: perActionShown(policy, grants),
  });
  if (!change) return undefined;
  const entity = entityName(event.entityType, event.entityId);
  return {
    webhookId: event.changeId,
    payload: { type: 'limit.changed', timestamp: event.change.at, data: { entity, changeId: event.changeId, change } },
  };
};

/**
 * What one subscriber is told of an event, judged now: nothing when it may not read the entity (no share with
 * UPDATE access, no read permission, the entity gone), otherwise exactly what status.do (a crossing) or
 * history.do (a change) would show it. Pure.
 */
export const deliveryView = (event: WebhookEvent, subscriber: Subscriber): DeliveryView | undefined => {
  const policy = readablePolicy(subscriber, { type: event.event.entityType, id: event.event.entityId });
  if (!policy) return undefined;
  return event.kind === 'limit.reached'
    ? reachedView(event.event, policy, subscriber.grants)
    : changedView(event.event, policy, subscriber.grants);
};
