import { loadPerAction } from '../adapters/dynamodb/per-action-store';
import type { OperationHandler } from '../pipeline/family-handler';
import { jsonResponse } from '../http/response';
import type { Ports } from '../runtime/dependencies';
import { actionLimitEntry, switchField } from './per-action-changes';
import { resolveTarget, targetOfPath } from './per-action-target';

/** list.do: the entity's per-action limits with their counters, and its switch. */
export const listActionLimits =
  (dependencies: Ports<'store' | 'clock'>): OperationHandler =>
  async (request) => {
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
