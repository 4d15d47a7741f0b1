import { historyWrites } from '../adapters/dynamodb/history-store';
import {
  clearLimitCountersItems,
  deleteLimitRequest,
  loadLimitForWrite,
  nextId,
  saveLimitRequest,
} from '../adapters/dynamodb/limit-store';
import type { TableStore } from '../adapters/dynamodb/table-store';
import { limitChanges, type HistoryEntry } from '../domain/history/limit-history';
import { planLimitChange } from '../domain/limits/limit-change';
import type { LimitRecord, LimitState } from '../domain/limits/limit-record';
import { renderLimit } from '../domain/limits/limit-view';
import { badRequest, forbidden, notFound } from '../http/api-error';
import type { ApiRequest, OperationHandler } from '../pipeline/family-handler';
import { jsonResponse } from '../http/response';
import type { Ports } from '../runtime/dependencies';
import { enforce } from './access-checks';
import { answerItems } from './idempotent-answer';
import { dryRunFlag, loadContext, type LimitContext } from './limit-context';
import { isDryRun } from './request-values';
import { changeAuthor } from './history-page';
import { optimisticWrite } from './optimistic-write';

const ignoredFields = (ignored: Record<string, string>) =>
  Object.keys(ignored).length > 0 ? { ignoredFields: Object.keys(ignored), ignoredFieldReasons: ignored } : {};

/** The record at its next version and the history entry of the change, in one transaction. */
const saveLimit = async (
  store: TableStore,
  { policy, id, now }: LimitContext,
  change: { next: LimitState; previous?: LimitRecord; limitId: number; historyVersion: number },
  { entry, answered }: { entry: HistoryEntry; answered: ReturnType<typeof answerItems> },
) => {
  const put = saveLimitRequest({
    type: policy.entityType,
    entityId: id,
    state: change.next,
    previous: change.previous,
    limitId: change.limitId,
    now,
  });
  await store.transactWrite({
    TransactItems: [
      { Put: { TableName: store.tableName, ...put } },
      ...historyWrites(store.tableName, { type: policy.entityType, id }, entry, {
        now,
        versionRead: change.historyVersion,
      }),
      ...answered,
    ],
  });
};

/** One attempt of set.do or update.do: judge the change against the record as read, write it, render it. */
const writeAttempt = async (
  store: TableStore,
  request: ApiRequest,
  context: LimitContext,
  { mode, attempt }: { mode: 'set' | 'update'; attempt: number },
) => {
  const { policy, id, now, grants, loaded } = context;
  const dryRun = isDryRun(request);
  const { limit, historyVersion } = attempt === 1 ? loaded : await loadLimitForWrite(store, policy.entityType, id, now);
  if (!limit && mode === 'update')
    throw notFound(`${policy.level} ${id} has no limits; create them with set.do`, 'LIMITS_NOT_SET');
  enforce(policy.write(grants, !limit));
  const change = { names: request.parameters.names(), get: (name: string) => request.parameters.get(name) };
  const plan = planLimitChange(limit, change, policy.capPolicy(grants));
  if (plan.outcome === 'invalid') throw badRequest(plan.errors);
  if (plan.outcome === 'forbidden')
    throw forbidden(`Changing ${plan.field} requires the "${plan.permission}" permission`, {
      permission: plan.permission,
    });
  const fields = limitChanges(limit, plan.next);
  // creating a record is a change even when every setting keeps its default
  const changes = !limit || Object.keys(fields).length > 0;
  // a dry run checks everything and writes nothing: not the record, not even a record id
  const limitId = limit?.id ?? (dryRun ? undefined : await nextId(store, 'LIMIT'));
  const saved = Object.assign({}, plan.next, { id: limitId ?? 0, version: (limit?.version ?? 0) + (changes ? 1 : 0) });
  // dates answer in the offset the request's dates were read in, as a read with that offset does
  const displayOffset = saved.useLocalTime ? saved.timezoneOffset : undefined;
  const view = renderLimit({
    idField: policy.idField,
    entityId: id,
    record: saved,
    counters: loaded.counters,
    policy: policy.viewPolicy(grants),
    displayOffset,
  });
  // a record a dry run would create has no id yet
  if (limitId === undefined) delete view.id;
  const answer = jsonResponse(200, { success: true, ...view, ...ignoredFields(plan.ignored), ...dryRunFlag(dryRun) });
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
    const change = { next: plan.next, previous: limit, limitId: limitId!, historyVersion };
    await saveLimit(store, context, change, { entry, answered: answerItems(request, answer) });
  }
  return answer;
};

/** set.do (creates or merges) and update.do (404 without a record): one optimistic write each. */
export const writeLimit =
  (dependencies: Ports<'store' | 'clock'>, mode: 'set' | 'update'): OperationHandler =>
  async (request) => {
    const context = await loadContext(dependencies, request, { reads: 'counters', forWrite: true });
    return optimisticWrite((attempt) => writeAttempt(dependencies.store, request, context, { mode, attempt }));
  };

/** delete.do: the record, its counters and the history entry go together, or nothing changes. */
export const deleteLimit =
  (dependencies: Ports<'store' | 'clock'>): OperationHandler =>
  async (request) => {
    const { store } = dependencies;
    const dryRun = isDryRun(request);
    const { policy, id, now, grants, loaded } = await loadContext(dependencies, request, {
      reads: 'counters',
      forWrite: true,
    });
    enforce(policy.delete(grants));
    const answerOf = () =>
      jsonResponse(200, {
        success: true,
        message: dryRun ? 'Dry run: nothing was removed' : 'Limits removed',
        [policy.idField]: id,
        limitsSet: false,
        ...dryRunFlag(dryRun),
      });
    if (dryRun) return answerOf();
    return optimisticWrite(async (attempt) => {
      // one answer per attempt: only the attempt that commits it has stored it
      const answer = answerOf();
      const { limit, historyVersion, counterItems } =
        attempt === 1 ? loaded : await loadLimitForWrite(store, policy.entityType, id, now);
      if (!limit) return answer;
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
          ...clearLimitCountersItems(tableName, policy.entityType, id, counterItems),
          ...historyWrites(tableName, { type: policy.entityType, id }, entry, { now, versionRead: historyVersion }),
          ...answerItems(request, answer),
        ],
      });
      return answer;
    });
  };
