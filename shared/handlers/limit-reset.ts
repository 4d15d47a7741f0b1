import { randomUUID } from 'node:crypto';
import { permissionLevel, type Grants } from '../domain/access';
import type { CapDefinition } from '../domain/limits/cap-grid';
import type { LevelPolicy } from '../domain/limits/level-policy';
import type { LimitRecord } from '../domain/limits/limit-record';
import { parseResetNames, resetPermissions } from '../domain/resets/reset-plan';
import { ApiError, badRequest, forbidden, notFound } from '../http/api-error';
import { principalOf, type ApiRequest, type OperationHandler } from '../pipeline/family-handler';
import { jsonResponse } from '../http/response';
import { describeError, logger } from '../observability/logger';
import type { Ports } from '../runtime/dependencies';
import { enforce } from './access-checks';
import { dryRunFlag, loadContext } from './limit-context';
import { isDryRun } from './request-values';
import { changeAuthor } from './history-page';

/** 403 unless the caller holds every permission resetting these counters of this record needs. */
const requireResetPermissions = (policy: LevelPolicy, grants: Grants, names: string[], limit: LimitRecord) => {
  const hidden = (cap: CapDefinition) => policy.capPermission(grants, cap) === 'DISABLED';
  for (const needed of resetPermissions(names, policy, { setCaps: limit.caps, hidden })) {
    const [name, level] =
      needed.kind === 'cap'
        ? [needed.cap.permission, policy.capPermission(grants, needed.cap)]
        : [needed.permission, permissionLevel(grants, needed.permission)];
    if (level !== 'ENABLED')
      throw forbidden(`Resetting these counters requires the "${name}" permission`, { permission: name });
  }
};

const notQueued = () =>
  new ApiError(503, 'The reset could not be queued; nothing was queued. Retry shortly', {
    headers: { 'Retry-After': '5' },
  });

/** reset.do, by POST or by DELETE: checks everything, then queues; the hourly flush applies it. */
export const queueReset =
  (dependencies: Ports<'store' | 'clock' | 'resetQueue'>): OperationHandler =>
  async (request: ApiRequest) => {
    const dryRun = isDryRun(request);
    const { policy, id, now, grants, loaded } = await loadContext(dependencies, request, { reads: 'limit' });
    enforce(policy.reset(grants));
    const parsed = parseResetNames(request.parameters.list('limitCounters'));
    if (!parsed.ok) throw badRequest({ limitCounters: parsed.reason });
    if (!loaded.limit) throw notFound(`${policy.level} ${id} has no limits`, 'LIMITS_NOT_SET');
    requireResetPermissions(policy, grants, parsed.names, loaded.limit);
    const queued = {
      entityType: policy.entityType,
      entityId: id,
      limitId: loaded.limit.id,
      counters: parsed.names,
      requestedAt: now.toISOString(),
      requestedBy: principalOf(request).userId,
      by: changeAuthor(request),
      resetId: randomUUID(),
      // no transaction spans the queue and the stored answer: a retry of a reset queued queues the same reset
      ...(request.idempotency ? { retryId: request.idempotency.retryId } : {}),
    };
    try {
      if (!dryRun) await dependencies.resetQueue.enqueue(queued);
    } catch (error) {
      logger.error('queueing a reset failed', describeError(error));
      throw notQueued();
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
