import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  entityFromItem,
  loadGrants,
  permissionLevel,
  requireUpdatableEntity,
  type Entity,
  type Grants,
} from '../../shared/domain/access';
import {
  CAMPAIGN_PER_ACTION,
  INVENTORY_PER_ACTION,
  MANAGE_CAPPING,
  type PermissionLevel,
} from '../../shared/domain/permissions';
import { positiveId } from '../../shared/handlers/request-values';
import { raceBackoff } from '../../shared/concurrency';
import { ApiError, badRequest, busyRecord, notFound } from '../../shared/http/api-error';
import { principalOf, type ApiRequest, type Implementations, type OperationHandler } from '../../shared/http/family-handler';
import { jsonResponse } from '../../shared/http/response';
import { nextId } from '../../shared/adapters/dynamodb/limit-store';
import { DEMAND_TYPES, planPerActionChange } from '../../shared/domain/per-action/per-action-change';
import {
  deleteActionCounters,
  deletePerActionRequest,
  loadActionCounters,
  loadPerAction,
  perActionFromItem,
  savePerActionRequest,
  type PerActionLimit,
} from '../../shared/adapters/dynamodb/per-action-store';
import type { Ports } from '../../shared/runtime/dependencies';
import { actionKey, actionLimitKey, actionSwitchKey, ENTITY_TYPES, entityKey, entityPK, itemKeyText, type EntityType, type ItemKey } from '../../shared/table/keys';
import type { Item } from '../../shared/adapters/dynamodb/table-store';

/** A DynamoDB transaction holds at most 100 actions. */
const MAX_IDS_PER_DELETE = 100;
const MAX_WRITE_ATTEMPTS = 20;

const permissionDenied = (permission: string) =>
  new ApiError(403, `Permission "${permission}" is required`, undefined, { permissionDenied: true, permission });

/** `{type}` must be one of the five names exactly; checked before anything else the operation does. */
const entityType = (text: string | undefined, name: string): EntityType => {
  if (!ENTITY_TYPES.includes(text as EntityType)) throw badRequest({ [name]: `must be one of ${ENTITY_TYPES.join(', ')} (upper case)` });
  return text as EntityType;
};

const perActionPermission = (type: EntityType) => (DEMAND_TYPES.includes(type) ? CAMPAIGN_PER_ACTION : INVENTORY_PER_ACTION);

const requireLevel = (grants: Grants, name: string, accepted: readonly PermissionLevel[]) => {
  if (!accepted.includes(permissionLevel(grants, name))) throw permissionDenied(name);
};

interface Target {
  type: EntityType;
  id: number;
  entity: Entity;
  grants: Grants;
  /** An item asked for in `alsoRead`, read in the same request as the entity. */
  read: (key: ItemKey) => Item | undefined;
}

/** Type, entity (404), access (403), then the per-action permission (403 permissionDenied). */
const resolveTarget = async (
  { store }: Ports<'store'>,
  request: ApiRequest,
  typeText: string | undefined,
  idText: string | undefined,
  typeName: string,
  accepted: readonly PermissionLevel[],
  alsoRead: (type: EntityType, id: number) => ItemKey[] = () => [],
): Promise<Target> => {
  const type = entityType(typeText, typeName);
  const id = positiveId(idText, 'entityId');
  const [grants, items] = await Promise.all([loadGrants(store, principalOf(request).userId), store.batchGet([entityKey(type, id), ...alsoRead(type, id)])]);
  const byKey = new Map(items.map((item) => [itemKeyText(item as ItemKey), item]));
  const read = (key: ItemKey) => byKey.get(itemKeyText(key));
  const entity = requireUpdatableEntity(grants, type, id, entityFromItem(read(entityKey(type, id))));
  requireLevel(grants, perActionPermission(type), accepted);
  return { type, id, entity, grants, read };
};

const entry = (limit: PerActionLimit, counters: { daily: number; total: number }) => ({
  id: limit.id,
  entityId: limit.entityId,
  actionId: limit.actionId,
  dailyConversionsLimit: limit.dailyConversionsLimit,
  totalConversionsLimit: limit.totalConversionsLimit,
  dailyConversions: counters.daily,
  totalConversions: counters.total,
});

const switchField = (type: EntityType, enabled: boolean) => (DEMAND_TYPES.includes(type) ? { actionLimitsEnabled: enabled } : {});

/** Every 403 of the per-action family carries `permissionDenied: true`, access refusals included. */
const markingDenials =
  (handler: OperationHandler): OperationHandler =>
  async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 403 && error.extra.permissionDenied !== true)
        throw new ApiError(403, error.message, error.errors, { ...error.extra, permissionDenied: true });
      throw error;
    }
  };

export const perActionOperations = (dependencies: Ports<'store' | 'clock'>): Implementations => {
  const { store, clock } = dependencies;

  const countersOf = (type: EntityType, id: number, limits: readonly { actionId: number }[]) =>
    loadActionCounters(store, limits.map((limit) => ({ type, id, actionId: limit.actionId })), clock.now());

  const change = (mode: 'add' | 'update') => async (request: ApiRequest) => {
    const actionText = request.parameters.get('actionId');
    const wellFormed = actionText !== undefined && /^\d{1,15}$/.test(actionText) && Number(actionText) > 0 ? Number(actionText) : undefined;
    // the action and its limit come with the entity, in one request; a malformed actionId is refused after the permission checks
    const { type, id, read } = await resolveTarget(dependencies, request, request.pathParameters.type, request.pathParameters.entityId, 'type', ['ENABLED'], (type, id) =>
      wellFormed === undefined ? [] : [actionKey(wellFormed), actionLimitKey(type, id, wellFormed)],
    );
    const actionId = positiveId(actionText, 'actionId');
    const get = (name: string) => request.parameters.get(name);
    if (!read(actionKey(actionId))) throw badRequest({ actionId: `unknown action ${actionId}` });
    for (let attempt = 1; ; attempt++) {
      const item = attempt === 1 ? read(actionLimitKey(type, id, actionId)) : await store.get(actionLimitKey(type, id, actionId));
      const stored = item ? perActionFromItem(item) : undefined;
      if (!stored && mode === 'update') throw notFound(`${type} ${id} has no per-action limit for action ${actionId}`);
      const plan = planPerActionChange(stored, get);
      if (plan.outcome === 'invalid') throw badRequest(plan.errors);
      const record = { id: stored?.id ?? (await nextId(store, 'ACTION_LIMIT')), entityType: type, entityId: id, actionId, ...plan.next };
      const switchOn = mode === 'add' && DEMAND_TYPES.includes(type);
      try {
        await store.transactWrite(savePerActionRequest(store.tableName, record, stored?.version, switchOn));
      } catch (error) {
        const lostRace = error instanceof TransactionCanceledException || error instanceof ConditionalCheckFailedException;
        if (!lostRace) throw error;
        if (attempt >= MAX_WRITE_ATTEMPTS) throw busyRecord();
        await raceBackoff(attempt);
        continue;
      }
      const enabled = mode === 'add' || (await store.get(actionSwitchKey(type, id)))?.enabled === true;
      const [counters] = await countersOf(type, id, [record]);
      return jsonResponse(200, { success: true, actionLimit: entry({ ...record, version: 0 }, counters!), ...switchField(type, enabled) });
    }
  };

  /** enable.do and disable.do: demand types only; Manage Capping and UPDATE on the owning advertiser as well. */
  const setSwitch = (enabled: boolean) => async (request: ApiRequest) => {
    const type = entityType(request.pathParameters.type, 'type');
    if (!DEMAND_TYPES.includes(type)) throw badRequest({ type: 'the per-action switch exists on ADVERTISER, CAMPAIGN and BANNER only' });
    const { id, entity, grants } = await resolveTarget(dependencies, request, type, request.pathParameters.entityId, 'type', ['ENABLED']);
    requireLevel(grants, MANAGE_CAPPING, ['ENABLED']);
    const advertiserId = type === 'ADVERTISER' ? id : entity.advertiserId;
    if (advertiserId === undefined || grants.shares.get(entityPK('ADVERTISER', advertiserId)) !== 'UPDATE')
      throw new ApiError(403, `UPDATE access to the owning advertiser ${advertiserId} is required`, undefined, { permissionDenied: true });
    // off first: whatever happens next, the remaining limits are inert
    await store.put({ Item: { ...actionSwitchKey(type, id), enabled } });
    if (!enabled) {
      const { limits } = await loadPerAction(store, type, id);
      await store.batchWrite([], limits.map((limit) => actionLimitKey(type, id, limit.actionId)));
      await deleteActionCounters(store, type, id, limits.map((limit) => limit.actionId));
    }
    return jsonResponse(200, { success: true, entityId: id, actionLimitsEnabled: enabled });
  };

  const operations: Implementations = {
    'perAction.list': async (request) => {
      const { type, id } = await resolveTarget(dependencies, request, request.pathParameters.type, request.pathParameters.entityId, 'type', ['ENABLED', 'READONLY']);
      const { limits, enabled } = await loadPerAction(store, type, id);
      const counters = await countersOf(type, id, limits);
      return jsonResponse(200, { success: true, actionLimits: limits.map((limit, index) => entry(limit, counters[index]!)), ...switchField(type, enabled) });
    },

    'perAction.add': change('add'),
    'perAction.update': change('update'),

    'perAction.delete': async (request) => {
      const typeText = request.parameters.get('type');
      if (typeText === undefined) throw badRequest({ type: 'is required' });
      entityType(typeText, 'type');
      const ids = request.parameters.list('ids');
      if (ids.length === 0) throw badRequest({ ids: 'at least one per-action limit id is required' });
      const wanted = [...new Set(ids.map((text) => positiveId(text, 'ids')))];
      if (wanted.length > MAX_IDS_PER_DELETE) throw badRequest({ ids: `at most ${MAX_IDS_PER_DELETE} ids per call` });
      const { type, id } = await resolveTarget(dependencies, request, typeText, request.parameters.get('entityId') ?? '', 'type', ['ENABLED']);
      const { limits } = await loadPerAction(store, type, id);
      const byId = new Map(limits.map((limit) => [limit.id, limit]));
      const foreign = wanted.find((limitId) => !byId.has(limitId));
      if (foreign !== undefined) throw notFound(`Per-action limit ${foreign} is not a limit of ${type} ${id}; nothing was deleted`);
      const doomed = wanted.map((limitId) => byId.get(limitId)!);
      try {
        await store.transactWrite(deletePerActionRequest(store.tableName, doomed));
      } catch (error) {
        if (error instanceof TransactionCanceledException) throw notFound(`A per-action limit of ${type} ${id} changed meanwhile; nothing was deleted`);
        throw error;
      }
      await deleteActionCounters(store, type, id, doomed.map((limit) => limit.actionId));
      return jsonResponse(200, { success: true, deletedIds: wanted });
    },

    'perAction.enable': setSwitch(true),
    'perAction.disable': setSwitch(false),
  };
  return Object.fromEntries(Object.entries(operations).map(([operation, handler]) => [operation, markingDenials(handler)]));
};
