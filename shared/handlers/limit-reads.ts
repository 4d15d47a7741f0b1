import { loadServingChain } from '../adapters/dynamodb/serving-state-store';
import { accessLevel, permissionLevel } from '../domain/access';
import type { CapDefinition } from '../domain/limits/cap-grid';
import { renderLimit } from '../domain/limits/limit-view';
import { pacingOf } from '../domain/serving/pacing';
import { servingDecision, type Visibility } from '../domain/serving/serving-decision';
import type { OperationHandler } from '../pipeline/family-handler';
import { jsonResponse } from '../http/response';
import type { Ports } from '../runtime/dependencies';
import { enforce } from './access-checks';
import { loadContext } from './limit-context';
import { historyPage } from './history-page';
import { optionalTimezoneOffset } from './request-values';

/** limits.do: the record and its counters, as far as the caller may see them. */
export const readLimit =
  (dependencies: Ports<'store' | 'clock'>): OperationHandler =>
  async (request) => {
    const { policy, id, grants, loaded } = await loadContext(dependencies, request, { reads: 'counters' });
    enforce(policy.read(grants));
    const offset = optionalTimezoneOffset(request);
    return jsonResponse(
      200,
      renderLimit({
        idField: policy.idField,
        entityId: id,
        record: loaded.limit,
        counters: loaded.counters,
        policy: policy.viewPolicy(grants),
        displayOffset: offset,
      }),
    );
  };

/** status.do: whether the entity serves, and why not, with its pacing. */
export const limitStatus =
  (dependencies: Ports<'store' | 'clock'>): OperationHandler =>
  async (request) => {
    const { policy, now, grants, loaded } = await loadContext(dependencies, request, { reads: 'entity' });
    enforce(policy.read(grants));
    // the chain starts with the entity itself: its limit and counters, read with its ancestors', pace it too
    const chain = await loadServingChain(dependencies.store, loaded.entity!, now);
    const { limit, counters } = chain[0]!;
    const visibility: Visibility = {
      entity: (entity) => accessLevel(grants, entity) !== undefined,
      cap: (cap: CapDefinition) => policy.capPermission(grants, cap) !== 'DISABLED',
      perAction: permissionLevel(grants, policy.perActionPermission) !== 'DISABLED',
    };
    const pacing = limit ? pacingOf(limit, policy.grid, counters, { now, visible: visibility.cap }) : [];
    return jsonResponse(200, { ...servingDecision(chain, now, visibility), pacing, countersAsOf: now.toISOString() });
  };

/** history.do: one page of the entity's change history. */
export const limitHistory =
  (dependencies: Ports<'store' | 'clock'>): OperationHandler =>
  async (request) => {
    const { policy, id, grants } = await loadContext(dependencies, request, { reads: 'entity' });
    enforce(policy.read(grants));
    return historyPage(dependencies.store, request, { policy, id, grants });
  };
