import { entityFromItem, grantsOf } from '../../shared/adapters/dynamodb/grants-store';
import type { Item } from '../../shared/adapters/dynamodb/table-store';
import { permissionDecision, permissionLevel, type Entity, type Grants } from '../../shared/domain/access';
import { ENTITY_TYPES, levelOfType, type EntityType } from '../../shared/domain/levels';
import type { PermissionLevel } from '../../shared/domain/permissions';
import { requireUpdatableEntity } from '../../shared/handlers/access-checks';
import { positiveId } from '../../shared/handlers/request-values';
import { ApiError, badRequest } from '../../shared/http/api-error';
import { principalOf, type ApiRequest, type OperationHandler } from '../../shared/pipeline/family-handler';
import type { Ports } from '../../shared/runtime/dependencies';
import { entityKey, itemKeyText, type ItemKey } from '../../shared/table/keys';

/** The per-action 403: every one carries `permissionDenied: true`. */
export const permissionDenied = (message: string, permission?: string) =>
  new ApiError(403, message, undefined, { permissionDenied: true, ...(permission ? { permission } : {}) });

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
  /** An item asked for in `alsoRead`, read in the same request as the entity. */
  read: (key: ItemKey) => Item | undefined;
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
  const byKey = new Map(items.map((item) => [itemKeyText(item as ItemKey), item]));
  const read = (key: ItemKey) => byKey.get(itemKeyText(key));
  const entity = requireUpdatableEntity(grants, type, id, entityFromItem(read(entityKey(type, id))));
  requirePerActionPermission(grants, levelOfType(type).perActionPermission, query.accepted);
  return { type, id, entity, grants, read };
};

/** Every 403 of the per-action family carries `permissionDenied: true`, access refusals included. */
export const markingDenials =
  (handler: OperationHandler): OperationHandler =>
  async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 403 && error.extra.permissionDenied !== true)
        throw new ApiError(403, error.message, error.errors, { ...error.extra, permissionDenied: true });
      throw error;
    }
  };
