import { entityFromItem, grantsOf } from '../adapters/dynamodb/grants-store';
import type { Item } from '../adapters/dynamodb/table-store';
import { permissionDecision, permissionLevel, type Entity, type Grants } from '../domain/access';
import { ENTITY_TYPES, levelOfType, type EntityType } from '../domain/levels';
import type { PermissionLevel } from '../domain/permissions';
import { requireUpdatableEntity } from './access-checks';
import { positiveId } from './request-values';
import { ApiError, badRequest } from '../http/api-error';
import { principalOf, type ApiRequest, type OperationHandler } from '../pipeline/family-handler';
import type { Ports } from '../runtime/dependencies';
import { entityKey, type ItemKey } from '../table/keys';

/** The per-action 403: every one carries `permissionDenied: true`. */
export const permissionDenied = (message: string, permission?: string) =>
  new ApiError(403, message, { extra: { permissionDenied: true, ...(permission ? { permission } : {}) } });

/** 403 permissionDenied unless the caller holds one of the accepted levels of the permission. */
export const requirePerActionPermission = (grants: Grants, name: string, accepted: readonly PermissionLevel[]) => {
  const decision = permissionDecision(permissionLevel(grants, name), name, accepted);
  if (!decision.allowed) throw permissionDenied(`Permission "${name}" is required`, name);
};

/** `{type}` must be one of the five names exactly; checked before anything else the operation does. */
export const entityTypeParameter = (text: string | undefined, name: string): EntityType => {
  if (!ENTITY_TYPES.includes(text as EntityType))
    throw badRequest({ [name]: `must be one of ${ENTITY_TYPES.join(', ')} (upper case)` });
  return text as EntityType;
};

export interface Target {
  type: EntityType;
  id: number;
  entity: Entity;
  grants: Grants;
  /** The items asked for in `alsoRead`, read in the same request as the entity (for their store to decode). */
  items: Item[];
}

export interface TargetQuery {
  type: EntityType;
  id: number;
  accepted: readonly PermissionLevel[];
  alsoRead?: (type: EntityType, id: number) => ItemKey[];
}

/** The `{type}/{entityId}` of a per-action path: the type (400), then the id (400). */
export const targetOfPath = (request: ApiRequest): { type: EntityType; id: number } => ({
  type: entityTypeParameter(request.pathParameters.type, 'type'),
  id: positiveId(request.pathParameters.entityId, 'entityId'),
});

/** The entity (404), access (403), then the level's per-action permission (403 permissionDenied). */
export const resolveTarget = async (
  ports: Ports<'store' | 'clock'>,
  request: ApiRequest,
  query: TargetQuery,
): Promise<Target> => {
  const { type, id } = query;
  const [grants, items] = await Promise.all([
    grantsOf(ports, principalOf(request).userId),
    ports.store.batchGet([entityKey(type, id), ...(query.alsoRead?.(type, id) ?? [])]),
  ]);
  const { PK, SK } = entityKey(type, id);
  const stored = entityFromItem(items.find((item) => item.PK === PK && item.SK === SK));
  const entity = requireUpdatableEntity(grants, type, id, stored);
  requirePerActionPermission(grants, levelOfType(type).perActionPermission, query.accepted);
  return { type, id, entity, grants, items };
};

/** Every 403 of the per-action family carries `permissionDenied: true`, access refusals included. */
export const markingDenials =
  (handler: OperationHandler): OperationHandler =>
  async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 403 && error.extra.permissionDenied !== true)
        throw new ApiError(403, error.message, {
          errors: error.errors,
          extra: { ...error.extra, permissionDenied: true },
        });
      throw error;
    }
  };
