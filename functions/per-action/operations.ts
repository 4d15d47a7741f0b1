import { deletePerActionItems, loadPerAction } from '../../shared/adapters/dynamodb/per-action-store';
import { optimisticWrite } from '../../shared/handlers/optimistic-write';
import { MAX_IDS_PER_DELETE } from '../../shared/domain/per-action/per-action-change';
import { optionalBoolean } from '../../shared/http/parameter-checks';
import { positiveId } from '../../shared/handlers/request-values';
import { badRequest, notFound } from '../../shared/http/api-error';
import type { ApiRequest, Implementations } from '../../shared/pipeline/family-handler';
import { jsonResponse } from '../../shared/http/response';
import type { Ports } from '../../shared/runtime/dependencies';
import { actionLimitEntry, changeActionLimit, switchField } from './limit-changes';
import { setActionSwitch } from './switch';
import { historyWrites, loadHistoryVersion } from '../../shared/adapters/dynamodb/history-store';
import type { HistoryEntry } from '../../shared/domain/history/limit-history';
import { changeAuthor } from '../../shared/handlers/limit-history';
import { entityTypeParameter, markingDenials, resolveTarget, targetOfPath } from './target';

const listActionLimits = (dependencies: Ports<'store' | 'clock'>) => async (request: ApiRequest) => {
  const { store, clock } = dependencies;
  const { type, id } = targetOfPath(request);
  // the per-action items are read beside the target's checks, in the same round trip, and answered only once
  // those pass; a refusal wins over a failed read, whichever comes back first
  const [target, perAction] = await Promise.allSettled([
    resolveTarget(dependencies, request, { type, id, accepted: ['ENABLED', 'READONLY'] }),
    loadPerAction(store, type, id, clock.now()),
  ]);
  if (target.status === 'rejected') throw target.reason;
  if (perAction.status === 'rejected') throw perAction.reason;
  const { limits, enabled, counters } = perAction.value;
  return jsonResponse(200, {
    success: true,
    actionLimits: limits.map((limit) => actionLimitEntry(limit, counters(limit.actionId))),
    ...switchField(type, enabled),
  });
};

/** delete.do: every id must be a limit of the entity, and all go in one transaction or none does. */
const deleteActionLimits = (dependencies: Ports<'store' | 'clock'>) => async (request: ApiRequest) => {
  const { store, clock } = dependencies;
  const typeText = request.parameters.get('type');
  if (typeText === undefined) throw badRequest({ type: 'is required' });
  const type = entityTypeParameter(typeText, 'type');
  const ids = request.parameters.list('ids');
  if (ids.length === 0) throw badRequest({ ids: 'at least one per-action limit id is required' });
  const wanted = [...new Set(ids.map((text) => positiveId(text, 'ids')))];
  if (wanted.length > MAX_IDS_PER_DELETE) throw badRequest({ ids: `at most ${MAX_IDS_PER_DELETE} ids per call` });
  const id = positiveId(request.parameters.get('entityId') ?? '', 'entityId');
  const dryRun = optionalBoolean(request.parameters, 'dryRun') ?? false;
  await resolveTarget(dependencies, request, { type, id, accepted: ['ENABLED'] });
  // the limits, their counters and the history entry go in one transaction, or nothing changes
  await optimisticWrite(async () => {
    const now = clock.now();
    const [{ limits, countersStored }, historyVersion] = await Promise.all([
      loadPerAction(store, type, id, now),
      loadHistoryVersion(store, type, id),
    ]);
    const byId = new Map(limits.map((limit) => [limit.id, limit]));
    const foreign = wanted.find((limitId) => !byId.has(limitId));
    if (foreign !== undefined)
      throw notFound(`Per-action limit ${foreign} is not a limit of ${type} ${id}; nothing was deleted`);
    if (dryRun) return;
    const doomed = wanted.map((limitId) => byId.get(limitId)!);
    const entry: HistoryEntry = {
      at: now.toISOString(),
      operation: 'actionDelete',
      by: changeAuthor(request),
      actionIds: doomed.map((limit) => limit.actionId),
    };
    await store.transactWrite({
      TransactItems: [
        ...deletePerActionItems(store.tableName, doomed, countersStored),
        ...historyWrites(store.tableName, type, id, entry, now, historyVersion),
      ],
    });
  });
  return jsonResponse(200, { success: true, deletedIds: wanted, ...(dryRun ? { dryRun: true } : {}) });
};

export const perActionOperations = (dependencies: Ports<'store' | 'clock'>): Implementations => {
  const operations: Implementations = {
    'perAction.list': listActionLimits(dependencies),
    'perAction.add': changeActionLimit(dependencies, 'add'),
    'perAction.update': changeActionLimit(dependencies, 'update'),
    'perAction.delete': deleteActionLimits(dependencies),
    'perAction.enable': setActionSwitch(dependencies, true),
    'perAction.disable': setActionSwitch(dependencies, false),
  };
  return Object.fromEntries(
    Object.entries(operations).map(([operation, handler]) => [operation, markingDenials(handler)]),
  );
};
