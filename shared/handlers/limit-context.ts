import { grantsOf } from '../adapters/dynamodb/grants-store';
import { loadEntityLimit, type EntityReads } from '../adapters/dynamodb/limit-store';
import { levelPolicy } from '../domain/limits/level-policy';
import { principalOf, type ApiRequest } from '../pipeline/family-handler';
import type { Ports } from '../runtime/dependencies';
import { requireUpdatableEntity } from './access-checks';
import { positiveId } from './request-values';

export const dryRunFlag = (dryRun: boolean) => (dryRun ? { dryRun: true as const } : {});

/**
 * Everything each limit operation starts from: the level's policy, the entity (404/403 checked), grants, and the
 * limit and the counters where the operation uses them.
 */
export const loadContext = async (
  { store, clock }: Ports<'store' | 'clock'>,
  request: ApiRequest,
  { reads, forWrite = false }: { reads: EntityReads; forWrite?: boolean },
) => {
  const policy = levelPolicy(request.route.level!);
  const id = positiveId(request.pathParameters[policy.idField], policy.idField);
  const now = clock.now();
  const [grants, loaded] = await Promise.all([
    grantsOf({ store, clock }, principalOf(request).userId),
    loadEntityLimit(store, { type: policy.entityType, id, now, reads, forWrite }),
  ]);
  requireUpdatableEntity(grants, policy.entityType, id, loaded.entity);
  return { policy, id, now, grants, loaded };
};

export type LimitContext = Awaited<ReturnType<typeof loadContext>>;
