import { clearActionCounters, loadPerAction } from '../../shared/adapters/dynamodb/per-action-store';
import { isDemandType } from '../../shared/domain/levels';
import { MANAGE_CAPPING } from '../../shared/domain/permissions';
import { badRequest } from '../../shared/http/api-error';
import type { ApiRequest } from '../../shared/http/family-handler';
import { jsonResponse } from '../../shared/http/response';
import type { Ports } from '../../shared/runtime/dependencies';
import { actionLimitKey, actionSwitchKey, entityPK } from '../../shared/table/keys';
import { historyPut } from '../../shared/adapters/dynamodb/history-store';
import type { HistoryEntry } from '../../shared/domain/history/limit-history';
import { changeAuthor } from '../../shared/handlers/limit-history';
import { positiveId } from '../../shared/handlers/request-values';
import { entityTypeParameter, permissionDenied, requirePerActionPermission, resolveTarget } from './target';

/** enable.do and disable.do: demand types only; Manage Capping and UPDATE on the owning advertiser as well. */
export const setActionSwitch =
  (dependencies: Ports<'store' | 'clock'>, enabled: boolean) => async (request: ApiRequest) => {
    const { store, clock } = dependencies;
    const type = entityTypeParameter(request.pathParameters.type, 'type');
    if (!isDemandType(type))
      throw badRequest({ type: 'the per-action switch exists on ADVERTISER, CAMPAIGN and BANNER only' });
    const { id, entity, grants, read } = await resolveTarget(dependencies, request, {
      type,
      id: positiveId(request.pathParameters.entityId, 'entityId'),
      accepted: ['ENABLED'],
      alsoRead: (type, id) => [actionSwitchKey(type, id)],
    });
    requirePerActionPermission(grants, MANAGE_CAPPING, ['ENABLED']);
    const advertiserId = type === 'ADVERTISER' ? id : entity.advertiserId;
    if (advertiserId === undefined || grants.shares.get(entityPK('ADVERTISER', advertiserId)) !== 'UPDATE')
      throw permissionDenied(`UPDATE access to the owning advertiser ${advertiserId} is required`);
    // off first: whatever happens next, the remaining limits are inert
    if ((read(actionSwitchKey(type, id))?.enabled === true) !== enabled) {
      const now = clock.now();
      const entry: HistoryEntry = {
        at: now.toISOString(),
        operation: enabled ? 'actionsEnabled' : 'actionsDisabled',
        by: changeAuthor(request),
      };
      await store.transactWrite({
        TransactItems: [
          { Put: { TableName: store.tableName, Item: { ...actionSwitchKey(type, id), enabled } } },
          historyPut(store.tableName, type, id, entry, now),
        ],
      });
    }
    if (!enabled) {
      const { limits } = await loadPerAction(store, type, id, clock.now());
      await store.batchWrite(
        [],
        limits.map((limit) => actionLimitKey(type, id, limit.actionId)),
      );
      await clearActionCounters(
        store,
        type,
        id,
        limits.map((limit) => limit.actionId),
      );
    }
    return jsonResponse(200, { success: true, entityId: id, actionLimitsEnabled: enabled });
  };
