import {
  permissionDecision,
  updatableEntity,
  type Entity,
  type Grants,
  type PermissionDecision,
} from '../domain/access';
import type { EntityType } from '../domain/levels';
import type { PermissionLevel } from '../domain/permissions';
import { forbidden, notFound, type ApiError } from '../http/api-error';

/** The 403 of a refused permission check, naming the permission. */
const permissionRefusal = (decision: Extract<PermissionDecision, { allowed: false }>): ApiError =>
  forbidden(
    `Permission "${decision.permission}" is required${decision.readOnlySuffices ? ' (read-only suffices)' : ''}`,
    {
      permission: decision.permission,
    },
  );

/** Throws the 403 of a refused decision. */
export const enforce = (decision: PermissionDecision): void => {
  if (!decision.allowed) throw permissionRefusal(decision);
};

/** 403 naming the permission unless the caller holds one of the accepted levels. */
export const requirePermission = (granted: PermissionLevel, name: string, accepted: readonly PermissionLevel[]): void =>
  enforce(permissionDecision(granted, name, accepted));

/** The entity when it exists, is not deleted and the caller holds UPDATE access to it or an ancestor; otherwise 404 or 403. */
export const requireUpdatableEntity = (
  grants: Grants,
  type: EntityType,
  id: number,
  entity: Entity | undefined,
): Entity => {
  const decision = updatableEntity(grants, type, entity);
  if (decision.allowed) return decision.entity;
  if (decision.reason === 'notFound') throw notFound(`${decision.displayName} ${id} not found`);
  throw forbidden(`No update access to ${decision.displayName.toLowerCase()} ${id}`);
};
