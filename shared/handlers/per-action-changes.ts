import { historyWrites } from '../adapters/dynamodb/history-store';
import { nextId } from '../adapters/dynamodb/limit-store';
import {
  actionLimitFromItems,
  actionLimitKeys,
  loadActionLimitForWrite,
  savePerActionRequest,
  type ActionCounters,
  type ActionLimitState,
  type PerActionLimit,
} from '../adapters/dynamodb/per-action-store';
import type { TableStore } from '../adapters/dynamodb/table-store';
import { ExactNumber } from '../domain/delivery/exact-units';
import { fieldChanges, type HistoryEntry } from '../domain/history/limit-history';
import { parsePositiveId } from '../domain/identifiers';
import { isDemandType, type EntityType } from '../domain/levels';
import { planPerActionChange } from '../domain/per-action/per-action-change';
import { badRequest, notFound } from '../http/api-error';
import type { ApiRequest, OperationHandler } from '../pipeline/family-handler';
import { optionalBoolean } from '../http/parameter-checks';
import { jsonResponse } from '../http/response';
import type { Ports } from '../runtime/dependencies';
import { changeAuthor } from './history-page';
import { answerItems } from './idempotent-answer';
import { optimisticWrite } from './optimistic-write';
import { resolveTarget, targetOfPath } from './per-action-target';
import { positiveId } from './request-values';

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

interface ActionLimitChange {
  request: ApiRequest;
  mode: 'add' | 'update';
  dryRun: boolean;
  type: EntityType;
  id: number;
  actionId: number;
  now: Date;
  /** What the target's read brought: the first attempt judges against it. */
  first: ActionLimitState;
}

/** The answer of add or update: the record as it stands after the write, and the switch. */
const changeAnswer = (change: ActionLimitChange, next: Omit<PerActionLimit, 'version'>, hasId: boolean) => {
  const { type, mode, dryRun, first } = change;
  // the switch was read with the entity: update never changes it, add turns it on
  const entry: Partial<ReturnType<typeof actionLimitEntry>> = actionLimitEntry(next, first.counters);
  // a record a dry run would create has no id yet
  if (!hasId) delete entry.id;
  return jsonResponse(200, {
    success: true,
    actionLimit: entry,
    ...switchField(type, mode === 'add' || first.enabled),
    ...(dryRun ? { dryRun: true } : {}),
  });
};

/**
 * One attempt of add or update: judge the change against the record as read, and write it with its history entry
 * and, under an Idempotency-Key, its answer.
 */
const changeAttempt = async (store: TableStore, change: ActionLimitChange, attempt: number) => {
  const { request, mode, dryRun, type, id, actionId, now, first } = change;
  const { limit: stored, historyVersion } =
    attempt === 1 ? first : await loadActionLimitForWrite(store, type, id, actionId);
  if (!stored && mode === 'update')
    throw notFound(`${type} ${id} has no per-action limit for action ${actionId}`, 'LIMITS_NOT_SET');
  const plan = planPerActionChange(stored, (name) => request.parameters.get(name));
  if (plan.outcome === 'invalid') throw badRequest(plan.errors);
  const switchOn = mode === 'add' && isDemandType(type);
  const fields = Object.assign(
    fieldChanges(stored ? capsOf(stored) : {}, { ...plan.next }),
    switchOn && !first.enabled ? { actionLimitsEnabled: { from: false, to: true } } : {},
  );
  // a dry run checks everything and writes nothing: not the record, not even a record id
  const recordId = stored?.id ?? (dryRun ? undefined : await nextId(store, 'ACTION_LIMIT'));
  const next = { id: recordId ?? 0, entityType: type, entityId: id, actionId, ...plan.next };
  const answer = changeAnswer(change, next, recordId !== undefined);
  // a write that changes nothing writes nothing, and so records nothing
  if (!dryRun && Object.keys(fields).length > 0) {
    const entry: HistoryEntry = {
      at: now.toISOString(),
      operation: mode === 'add' ? 'actionAdd' : 'actionUpdate',
      by: changeAuthor(request),
      actionId,
      fields,
    };
    await store.transactWrite({
      TransactItems: [
        ...savePerActionRequest(store.tableName, next, stored?.version, switchOn).TransactItems,
        ...historyWrites(store.tableName, { type, id }, entry, { now, versionRead: historyVersion }),
        ...answerItems(request, answer),
      ],
    });
  }
  return answer;
};

/** add (an upsert that switches per-action limits on) and update (404 without a record): one optimistic write each. */
export const changeActionLimit =
  (dependencies: Ports<'store' | 'clock'>, mode: 'add' | 'update'): OperationHandler =>
  async (request) => {
    const dryRun = optionalBoolean(request.parameters, 'dryRun') ?? false;
    const actionText = request.parameters.get('actionId');
    const requested = parsePositiveId(actionText);
    // the action, its limit, the switch and the counters of the answer come with the entity, in one request (the
    // write changes no counter); a malformed actionId is refused after the permission checks
    const { type, id, items } = await resolveTarget(dependencies, request, {
      ...targetOfPath(request),
      accepted: ['ENABLED'],
      alsoRead: (type, id) => (requested === undefined ? [] : actionLimitKeys(type, id, requested)),
    });
    const now = dependencies.clock.now();
    const actionId = positiveId(actionText, 'actionId');
    const first = actionLimitFromItems({ type, id, actionId }, items, now);
    if (!first.actionExists) throw badRequest({ actionId: `unknown action ${actionId}` });
    const change = { request, mode, dryRun, type, id, actionId, now, first };
    return optimisticWrite((attempt) => changeAttempt(dependencies.store, change, attempt));
  };
