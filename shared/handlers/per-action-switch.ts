import {
  actionSwitchItem,
  deletePerActionItems,
  loadActionSwitch,
  loadPerAction,
} from '../adapters/dynamodb/per-action-store';
import { historyWrites, loadHistoryVersion } from '../adapters/dynamodb/history-store';
import type { TableStore } from '../adapters/dynamodb/table-store';
import type { HistoryEntry } from '../domain/history/limit-history';
import { isDemandType, type EntityType } from '../domain/levels';
import { MANAGE_CAPPING } from '../domain/permissions';
import { changeAuthor } from './history-page';
import { answerItems } from './idempotent-answer';
import { optimisticWrite } from './optimistic-write';
import { positiveId } from './request-values';
import { badRequest } from '../http/api-error';
import type { ApiRequest } from '../pipeline/family-handler';
import { optionalBoolean } from '../http/parameter-checks';
import { jsonResponse } from '../http/response';
import type { Ports } from '../runtime/dependencies';
import { entityPK } from '../table/keys';
import { entityTypeParameter, permissionDenied, requirePerActionPermission, resolveTarget } from './per-action-target';

/**
 * A transaction holds at most 100 actions: the switch, two per limit deleted, two for the history entry, and the
 * answer stored under an Idempotency-Key.
 */
export const MAX_LIMITS_PER_DISABLE = 48;

/**
 * What a switch reads before it writes: the switch, the limits it would delete, the entity's history version.
 * The switch and, when it goes off, every per-action limit of the entity with its counters, together with the
 * history entry in one transaction: the state afterwards is wholly the old or wholly the new.
 */
const readSwitch = async (store: TableStore, target: { type: EntityType; id: number }, enabled: boolean, now: Date) => {
  const { type, id } = target;
  const [current, { limits, countersStored }, historyVersion] = await Promise.all([
    loadActionSwitch(store, type, id),
    enabled ? Promise.resolve({ limits: [], countersStored: () => false }) : loadPerAction(store, type, id, now),
    loadHistoryVersion(store, type, id),
  ]);
  const switching = current !== enabled;
  if (limits.length > MAX_LIMITS_PER_DISABLE)
    throw badRequest({
      entityId: `has ${limits.length} per-action limits; disable.do removes at most ${MAX_LIMITS_PER_DISABLE} at once: delete some with delete.do first`,
    });
  return { switching, limits, countersStored, historyVersion };
};

/** enable.do and disable.do: demand types only; Manage Capping and UPDATE on the owning advertiser as well. */
export const setActionSwitch =
  (dependencies: Ports<'store' | 'clock'>, enabled: boolean) => async (request: ApiRequest) => {
    const { store, clock } = dependencies;
    const dryRun = optionalBoolean(request.parameters, 'dryRun') ?? false;
    const type = entityTypeParameter(request.pathParameters.type, 'type');
    if (!isDemandType(type))
      throw badRequest({ type: 'the per-action switch exists on ADVERTISER, CAMPAIGN and BANNER only' });
    const { id, entity, grants } = await resolveTarget(dependencies, request, {
      type,
      id: positiveId(request.pathParameters.entityId, 'entityId'),
      accepted: ['ENABLED'],
    });
    requirePerActionPermission(grants, MANAGE_CAPPING, ['ENABLED']);
    const advertiserId = type === 'ADVERTISER' ? id : entity.advertiserId;
    if (advertiserId === undefined || grants.shares.get(entityPK('ADVERTISER', advertiserId)) !== 'UPDATE')
      throw permissionDenied(`UPDATE access to the owning advertiser ${advertiserId} is required`);
    return optimisticWrite(async () => {
      // one answer per attempt: only the attempt that commits it has stored it
      const answer = jsonResponse(200, {
        success: true,
        entityId: id,
        actionLimitsEnabled: enabled,
        ...(dryRun ? { dryRun: true } : {}),
      });
      const now = clock.now();
      const { switching, limits, countersStored, historyVersion } = await readSwitch(store, { type, id }, enabled, now);
      if (dryRun || (!switching && limits.length === 0)) return answer;
      const entry: HistoryEntry = {
        at: now.toISOString(),
        operation: enabled ? 'actionsEnabled' : 'actionsDisabled',
        by: changeAuthor(request),
        ...(limits.length > 0 ? { actionIds: limits.map((limit) => limit.actionId) } : {}),
      };
      await store.transactWrite({
        TransactItems: [
          actionSwitchItem(store.tableName, type, id, enabled),
          ...deletePerActionItems(store.tableName, limits, countersStored),
          ...historyWrites(store.tableName, { type, id }, entry, { now, versionRead: historyVersion }),
          ...answerItems(request, answer),
        ],
      });
      return answer;
    });
  };
