import { ExactNumber } from '../../shared/domain/delivery/exact-units';
import { parsePositiveId } from '../../shared/domain/identifiers';
import { nextId } from '../../shared/adapters/dynamodb/limit-store';
import {
  type ActionCounters,
  actionCountersFromItem,
  perActionFromItem,
  savePerActionRequest,
  type PerActionLimit,
} from '../../shared/adapters/dynamodb/per-action-store';
import { isDemandType, type EntityType } from '../../shared/domain/levels';
import type { Item, TableStore } from '../../shared/adapters/dynamodb/table-store';
import type { ItemKey } from '../../shared/table/keys';
import { planPerActionChange } from '../../shared/domain/per-action/per-action-change';
import { optimisticWrite } from '../../shared/handlers/optimistic-write';
import { positiveId } from '../../shared/handlers/request-values';
import { badRequest, notFound } from '../../shared/http/api-error';
import { optionalBoolean } from '../../shared/http/parameter-checks';
import type { ApiRequest } from '../../shared/pipeline/family-handler';
import { jsonResponse } from '../../shared/http/response';
import type { Ports } from '../../shared/runtime/dependencies';
import { actionCountersKey, actionKey, actionLimitKey, actionSwitchKey, historyHeadKey } from '../../shared/table/keys';
import { resolveTarget, targetOfPath } from './target';
import { historyVersionOf, historyWrites } from '../../shared/adapters/dynamodb/history-store';
import { fieldChanges, type HistoryEntry } from '../../shared/domain/history/limit-history';
import { changeAuthor } from '../../shared/handlers/limit-history';

const capsOf = ({ dailyConversionsLimit, totalConversionsLimit }: PerActionLimit) => ({
  dailyConversionsLimit,
  totalConversionsLimit,
});

/** One entry of an answer: the record's figures beside today's and the total conversions. */
export const actionLimitEntry = (limit: Omit<PerActionLimit, 'version'>, counters: ActionCounters) => ({
  id: limit.id,
  entityId: limit.entityId,
  actionId: limit.actionId,
  dailyConversionsLimit: limit.dailyConversionsLimit,
  totalConversionsLimit: limit.totalConversionsLimit,
  dailyConversions: ExactNumber.of(counters.daily, 1n),
  totalConversions: ExactNumber.of(counters.total, 1n),
});

/** `actionLimitsEnabled` is reported on advertisers, campaigns and banners only. */
export const switchField = (type: Parameters<typeof isDemandType>[0], enabled: boolean) =>
  isDemandType(type) ? { actionLimitsEnabled: enabled } : {};

/** The record and the entity's history version, as the target's read brought them. */
const readFirst = (read: (key: ItemKey) => Item | undefined, type: EntityType, id: number, actionId: number) => ({
  item: read(actionLimitKey(type, id, actionId)),
  historyVersion: historyVersionOf(read(historyHeadKey(type, id))),
});

/** A later attempt reads the record and the history version again, together. */
const readAgain = async (store: TableStore, type: EntityType, id: number, actionId: number) => {
  const items = await store.batchGet([actionLimitKey(type, id, actionId), historyHeadKey(type, id)]);
  const bySortKey = new Map(items.map((item) => [String(item.SK), item]));
  return {
    item: bySortKey.get(actionLimitKey(type, id, actionId).SK),
    historyVersion: historyVersionOf(bySortKey.get(historyHeadKey(type, id).SK)),
  };
};

/** add (an upsert that switches per-action limits on) and update (404 without a record): one optimistic write each. */
export const changeActionLimit =
  (dependencies: Ports<'store' | 'clock'>, mode: 'add' | 'update') => async (request: ApiRequest) => {
    const { store, clock } = dependencies;
    const dryRun = optionalBoolean(request.parameters, 'dryRun') ?? false;
    const actionText = request.parameters.get('actionId');
    const requested = parsePositiveId(actionText);
    // the action, its limit, the switch and the counters of the answer come with the entity, in one request (the
    // write changes no counter); a malformed actionId is refused after the permission checks
    const { type, id, read } = await resolveTarget(dependencies, request, {
      ...targetOfPath(request),
      accepted: ['ENABLED'],
      alsoRead: (type, id) =>
        requested === undefined
          ? []
          : [
              actionKey(requested),
              actionLimitKey(type, id, requested),
              actionSwitchKey(type, id),
              actionCountersKey(type, id, requested),
              historyHeadKey(type, id),
            ],
    });
    const now = clock.now();
    const actionId = positiveId(actionText, 'actionId');
    if (!read(actionKey(actionId))) throw badRequest({ actionId: `unknown action ${actionId}` });
    const { next: record, hasId } = await optimisticWrite(async (attempt) => {
      const { item, historyVersion } =
        attempt === 1 ? readFirst(read, type, id, actionId) : await readAgain(store, type, id, actionId);
      const stored = item ? perActionFromItem(item) : undefined;
      if (!stored && mode === 'update')
        throw notFound(`${type} ${id} has no per-action limit for action ${actionId}`, 'LIMITS_NOT_SET');
      const plan = planPerActionChange(stored, (name) => request.parameters.get(name));
      if (plan.outcome === 'invalid') throw badRequest(plan.errors);
      // a dry run checks everything and writes nothing: not the record, not even a record id
      const switchOn = mode === 'add' && isDemandType(type);
      const fields = {
        ...fieldChanges(stored ? capsOf(stored) : {}, { ...plan.next }),
        ...(switchOn && read(actionSwitchKey(type, id))?.enabled !== true
          ? { actionLimitsEnabled: { from: false, to: true } }
          : {}),
      };
      const recordId = stored?.id ?? (dryRun ? undefined : await nextId(store, 'ACTION_LIMIT'));
      const next = { id: recordId ?? 0, entityType: type, entityId: id, actionId, ...plan.next };
      // a write that changes nothing writes nothing, and so records nothing
      if (!dryRun && Object.keys(fields).length > 0) {
        const save = savePerActionRequest(store.tableName, next, stored?.version, switchOn);
        const entry: HistoryEntry = {
          at: now.toISOString(),
          operation: mode === 'add' ? 'actionAdd' : 'actionUpdate',
          by: changeAuthor(request),
          actionId,
          fields,
        };
        await store.transactWrite({
          TransactItems: [
            ...save.TransactItems,
            ...historyWrites(store.tableName, type, id, entry, now, historyVersion),
          ],
        });
      }
      return { next, hasId: recordId !== undefined };
    });
    // the switch was read with the entity: update never changes it, add turns it on
    const enabled = mode === 'add' || read(actionSwitchKey(type, id))?.enabled === true;
    const counters = actionCountersFromItem(read(actionCountersKey(type, id, actionId)), now);
    const entry: Partial<ReturnType<typeof actionLimitEntry>> = actionLimitEntry(record, counters);
    // a record a dry run would create has no id yet
    if (!hasId) delete entry.id;
    return jsonResponse(200, {
      success: true,
      actionLimit: entry,
      ...switchField(type, enabled),
      ...(dryRun ? { dryRun: true } : {}),
    });
  };
