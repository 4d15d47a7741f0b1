import { randomUUID } from 'node:crypto';
import { accessLevel, permissionLevel } from '../domain/access';
import { enforce, requireUpdatableEntity } from './access-checks';
import { optimisticWrite } from './optimistic-write';
import { grantsOf } from '../adapters/dynamodb/grants-store';
import { ApiError, badRequest, forbidden, notFound } from '../http/api-error';
import { optionalBoolean } from '../http/parameter-checks';
import { principalOf, type ApiRequest, type Implementations } from '../pipeline/family-handler';
import { jsonResponse } from '../http/response';
import type { CapDefinition } from '../domain/limits/cap-grid';
import { levelPolicy } from '../domain/limits/level-policy';
import { planLimitChange } from '../domain/limits/limit-change';
import {
  clearLimitCountersItem,
  deleteLimitRequest,
  loadEntityLimit,
  loadLimitForWrite,
  type EntityReads,
  nextId,
  saveLimitRequest,
} from '../adapters/dynamodb/limit-store';
import { renderLimit } from '../domain/limits/limit-view';
import { parseResetNames, resetPermissions } from '../domain/resets/reset-plan';
import { describeError, logger } from '../observability/logger';
import type { Ports } from '../runtime/dependencies';
import { pacingOf } from '../domain/serving/pacing';
import { servingDecision, type Visibility } from '../domain/serving/serving-decision';
import { loadServingChain } from '../adapters/dynamodb/serving-state-store';
import { optionalTimezoneOffset, positiveId } from './request-values';
import { historyWrites } from '../adapters/dynamodb/history-store';
import { limitChanges, type HistoryEntry } from '../domain/history/limit-history';
import { changeAuthor, historyPage } from './limit-history';

const isDryRun = (request: ApiRequest): boolean => optionalBoolean(request.parameters, 'dryRun') ?? false;
const dryRunFlag = (dryRun: boolean) => (dryRun ? { dryRun: true as const } : {});

const ignoredFields = (ignored: Record<string, string>) =>
  Object.keys(ignored).length > 0 ? { ignoredFields: Object.keys(ignored), ignoredFieldReasons: ignored } : {};

/**
 * Everything each operation starts from: the level's policy, the entity (404/403 checked), grants, and the limit
 * and the counters where the operation uses them.
 */
const loadContext = async (
  { store, clock }: Ports<'store' | 'clock'>,
  request: ApiRequest,
  reads: EntityReads,
  forWrite = false,
) => {
  const policy = levelPolicy(request.route.level!);
  const id = positiveId(request.pathParameters[policy.idField], policy.idField);
  const now = clock.now();
  const [grants, loaded] = await Promise.all([
    grantsOf({ store, clock }, principalOf(request).userId),
    loadEntityLimit(store, policy.entityType, id, now, reads, forWrite),
  ]);
  requireUpdatableEntity(grants, policy.entityType, id, loaded.entity);
  return { policy, id, now, grants, loaded };
};

/** read, set, update, reset and delete for all five levels: one implementation, parameterised by the level's policy. */
export const limitOperations = (dependencies: Ports<'store' | 'clock' | 'resetQueue'>): Implementations => {
  const { store } = dependencies;

  const write = (mode: 'set' | 'update') => async (request: ApiRequest) => {
    const dryRun = isDryRun(request);
    const { policy, id, now, grants, loaded } = await loadContext(dependencies, request, 'counters', true);
    const change = { names: request.parameters.names(), get: (name: string) => request.parameters.get(name) };
    return optimisticWrite(async (attempt) => {
      const { limit, historyVersion } = attempt === 1 ? loaded : await loadLimitForWrite(store, policy.entityType, id);
      if (!limit && mode === 'update')
        throw notFound(`${policy.level} ${id} has no limits; create them with set.do`, 'LIMITS_NOT_SET');
      enforce(policy.write(grants, !limit));
      const plan = planLimitChange(limit, change, policy.capPolicy(grants));
      if (plan.outcome === 'invalid') throw badRequest(plan.errors);
      if (plan.outcome === 'forbidden')
        throw forbidden(`Changing ${plan.field} requires the "${plan.permission}" permission`, {
          permission: plan.permission,
        });
      // a dry run checks everything and writes nothing: not the record, not even a record id
      const fields = limitChanges(limit, plan.next);
      // creating a record is a change even when every setting keeps its default
      const changes = !limit || Object.keys(fields).length > 0;
      const limitId = limit?.id ?? (dryRun ? undefined : await nextId(store, 'LIMIT'));
      // a write that changes nothing writes nothing, and so records nothing
      if (!dryRun && changes) {
        const ignored = Object.keys(plan.ignored);
        const entry: HistoryEntry = {
          at: now.toISOString(),
          operation: mode,
          by: changeAuthor(request),
          fields,
          ...(ignored.length > 0 ? { ignoredFields: ignored } : {}),
        };
        await store.transactWrite({
          TransactItems: [
            {
              Put: {
                TableName: store.tableName,
                ...saveLimitRequest(policy.entityType, id, plan.next, limit, limitId!, now),
              },
            },
            ...historyWrites(store.tableName, policy.entityType, id, entry, now, historyVersion),
          ],
        });
      }
      const saved = { ...plan.next, id: limitId ?? 0, version: (limit?.version ?? 0) + (changes ? 1 : 0) };
      // dates answer in the offset the request's dates were read in, as a read with that offset does
      const displayOffset = saved.useLocalTime ? saved.timezoneOffset : undefined;
      const view = renderLimit(policy.idField, id, saved, loaded.counters, policy.viewPolicy(grants), displayOffset);
      // a record a dry run would create has no id yet
      if (limitId === undefined) delete view.id;
      return jsonResponse(200, {
        success: true,
        ...view,
        ...ignoredFields(plan.ignored),
        ...dryRunFlag(dryRun),
      });
    });
  };

  /** reset.do, by POST or by DELETE: checks everything, then queues; the hourly flush applies it. */
  const reset = async (request: ApiRequest) => {
    const dryRun = isDryRun(request);
    const { policy, id, now, grants, loaded } = await loadContext(dependencies, request, 'limit');
    enforce(policy.reset(grants));
    const parsed = parseResetNames(request.parameters.list('limitCounters'));
    if (!parsed.ok) throw badRequest({ limitCounters: parsed.reason });
    if (!loaded.limit) throw notFound(`${policy.level} ${id} has no limits`, 'LIMITS_NOT_SET');
    const hidden = (cap: CapDefinition) => policy.capPermission(grants, cap) === 'DISABLED';
    const needs = resetPermissions(parsed.names, policy.grid, loaded.limit.caps, policy.perActionPermission, hidden);
    for (const needed of needs) {
      const [name, level] =
        needed.kind === 'cap'
          ? [needed.cap.permission, policy.capPermission(grants, needed.cap)]
          : [needed.permission, permissionLevel(grants, needed.permission)];
      if (level !== 'ENABLED')
        throw forbidden(`Resetting these counters requires the "${name}" permission`, { permission: name });
    }
    const queued = {
      entityType: policy.entityType,
      entityId: id,
      limitId: loaded.limit.id,
      counters: parsed.names,
      requestedAt: now.toISOString(),
      requestedBy: principalOf(request).userId,
      by: changeAuthor(request),
      resetId: randomUUID(),
    };
    try {
      if (!dryRun) await dependencies.resetQueue.enqueue(queued);
    } catch (error) {
      logger.error('queueing a reset failed', describeError(error));
      throw new ApiError(
        503,
        'The reset could not be queued; nothing was queued. Retry shortly',
        undefined,
        {},
        { 'Retry-After': '5' },
      );
    }
    return jsonResponse(200, {
      success: true,
      message: dryRun
        ? 'Dry run: nothing was queued; the reset would change the counters at the next hourly flush'
        : 'Reset queued: the counters change at the next hourly flush',
      [policy.idField]: id,
      limitCounters: parsed.names,
      ...dryRunFlag(dryRun),
    });
  };

  return {
    'limits.read': async (request) => {
      const { policy, id, grants, loaded } = await loadContext(dependencies, request, 'counters');
      enforce(policy.read(grants));
      const offset = optionalTimezoneOffset(request);
      return jsonResponse(
        200,
        renderLimit(policy.idField, id, loaded.limit, loaded.counters, policy.viewPolicy(grants), offset),
      );
    },

    'limits.status': async (request) => {
      const { policy, now, grants, loaded } = await loadContext(dependencies, request, 'entity');
      enforce(policy.read(grants));
      // the chain starts with the entity itself: its limit and counters, read with its ancestors', pace it too
      const chain = await loadServingChain(store, loaded.entity!, now);
      const { limit, counters } = chain[0]!;
      const visibility: Visibility = {
        entity: (entity) => accessLevel(grants, entity) !== undefined,
        cap: (cap: CapDefinition) => policy.capPermission(grants, cap) !== 'DISABLED',
        perAction: permissionLevel(grants, policy.perActionPermission) !== 'DISABLED',
      };
      const pacing = limit ? pacingOf(limit, policy.grid, counters, now, visibility.cap) : [];
      return jsonResponse(200, { ...servingDecision(chain, now, visibility), pacing, countersAsOf: now.toISOString() });
    },

    'limits.history': async (request) => {
      const { policy, id, grants } = await loadContext(dependencies, request, 'entity');
      enforce(policy.read(grants));
      return historyPage(store, request, { policy, id, grants });
    },

    'limits.set': write('set'),
    'limits.update': write('update'),

    'limits.reset': (request) => reset(request),
    'limits.resetByDelete': (request) => reset(request),

    'limits.delete': async (request) => {
      const dryRun = isDryRun(request);
      const { policy, id, now, grants, loaded } = await loadContext(dependencies, request, 'counters', true);
      enforce(policy.delete(grants));
      // the record, its counters and the history entry go together, or nothing changes
      if (!dryRun)
        await optimisticWrite(async (attempt) => {
          const { limit, historyVersion, counterItemStored } =
            attempt === 1 ? loaded : await loadLimitForWrite(store, policy.entityType, id);
          if (!limit) return;
          const entry: HistoryEntry = {
            at: now.toISOString(),
            operation: 'delete',
            by: changeAuthor(request),
            fields: limitChanges(limit, undefined),
          };
          const { tableName } = store;
          await store.transactWrite({
            TransactItems: [
              { Delete: { TableName: tableName, ...deleteLimitRequest(policy.entityType, id, limit.version) } },
              clearLimitCountersItem(tableName, policy.entityType, id, counterItemStored),
              ...historyWrites(tableName, policy.entityType, id, entry, now, historyVersion),
            ],
          });
        });
      return jsonResponse(200, {
        success: true,
        message: dryRun ? 'Dry run: nothing was removed' : 'Limits removed',
        [policy.idField]: id,
        limitsSet: false,
        ...dryRunFlag(dryRun),
      });
    },
  };
};
