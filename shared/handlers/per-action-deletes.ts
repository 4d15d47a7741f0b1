import { historyWrites, loadHistoryVersion } from '../adapters/dynamodb/history-store';
import { deletePerActionItems, loadPerAction } from '../adapters/dynamodb/per-action-store';
import type { HistoryEntry } from '../domain/history/limit-history';
import { MAX_IDS_PER_DELETE } from '../domain/per-action/per-action-change';
import { badRequest, notFound } from '../http/api-error';
import type { OperationHandler } from '../pipeline/family-handler';
import { optionalBoolean } from '../http/parameter-checks';
import { jsonResponse } from '../http/response';
import type { Ports } from '../runtime/dependencies';
import { changeAuthor } from './history-page';
import { answerItems } from './idempotent-answer';
import { optimisticWrite } from './optimistic-write';
import { entityTypeParameter, resolveTarget } from './per-action-target';
import { positiveId } from './request-values';

/**
 * delete.do: every id must be a limit of the entity, and all go in one transaction or none does, with the answer
 * under an Idempotency-Key.
 */
export const deleteActionLimits =
  (dependencies: Ports<'store' | 'clock'>): OperationHandler =>
  async (request) => {
    const { store, clock } = dependencies;
    const typeText = request.parameters.get('type');
    if (typeText === undefined) throw badRequest({ type: 'is required' });
    const type = entityTypeParameter(typeText, 'type');
    const ids = request.parameters.list('ids');
    if (ids.length === 0) throw badRequest({ ids: 'at least one per-action limit id is required' });
    const wanted = [...new Set(ids.map((text) => positiveId(text, 'ids')))];
    // the answer stored under an Idempotency-Key takes one of the transaction's 100 items
    const most = request.idempotency ? MAX_IDS_PER_DELETE - 1 : MAX_IDS_PER_DELETE;
    if (wanted.length > most)
      throw badRequest({
        ids: `at most ${most} ids per call${request.idempotency ? ' with an Idempotency-Key' : ''}`,
      });
    const id = positiveId(request.parameters.get('entityId') ?? '', 'entityId');
    const dryRun = optionalBoolean(request.parameters, 'dryRun') ?? false;
    await resolveTarget(dependencies, request, { type, id, accepted: ['ENABLED'] });
    // the limits, their counters and the history entry go in one transaction, or nothing changes
    return optimisticWrite(async () => {
      // one answer per attempt: only the attempt that commits it has stored it
      const answer = jsonResponse(200, { success: true, deletedIds: wanted, ...(dryRun ? { dryRun: true } : {}) });
      const now = clock.now();
      const [{ limits, countersStored }, historyVersion] = await Promise.all([
        loadPerAction(store, type, id, now),
        loadHistoryVersion(store, type, id),
      ]);
      const byId = new Map(limits.map((limit) => [limit.id, limit]));
      const foreign = wanted.find((limitId) => !byId.has(limitId));
      if (foreign !== undefined)
        throw notFound(`Per-action limit ${foreign} is not a limit of ${type} ${id}; nothing was deleted`);
      if (dryRun) return answer;
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
          ...historyWrites(store.tableName, { type, id }, entry, { now, versionRead: historyVersion }),
          ...answerItems(request, answer),
        ],
      });
      return answer;
    });
  };
