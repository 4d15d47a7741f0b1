import type { Grants } from '../../shared/domain/access';
import { levelPolicy } from '../../shared/domain/limits/level-policy';
import type { CapPolicy } from '../../shared/domain/limits/limit-change';
import type { LimitState } from '../../shared/domain/limits/limit-record';
import type { LimitLevel } from '../../shared/domain/levels';
import {
  DEMAND_CAP_PERMISSIONS,
  GENERAL_PERMISSIONS,
  INVENTORY_CAP_PERMISSIONS,
  type PermissionLevel,
} from '../../shared/domain/permissions';

/** Grants holding every permission ENABLED, but for the levels given by name, and UPDATE shares on the entities named. */
export const grantsWith = (
  levels: Record<string, PermissionLevel> = {},
  shares: Record<string, 'UPDATE' | 'READ'> = {},
): Grants => {
  const all = (names: readonly string[]) =>
    Object.fromEntries(names.map((name): [string, PermissionLevel] => [name, levels[name] ?? 'ENABLED']));
  return {
    userId: 1,
    permissions: all([...GENERAL_PERMISSIONS, ...DEMAND_CAP_PERMISSIONS]),
    inventoryPermissions: all(INVENTORY_CAP_PERMISSIONS),
    shares: new Map(Object.entries(shares)),
  };
};

/** The cap policy the service applies at a level, for a caller holding everything but `levels`. */
export const capPolicyAt = (level: LimitLevel, levels: Record<string, PermissionLevel> = {}): CapPolicy =>
  levelPolicy(level).capPolicy(grantsWith(levels));

export const limitState = (changes: Partial<LimitState> = {}): LimitState => ({
  caps: {},
  evenPacing: false,
  useLocalTime: false,
  timezoneOffset: 0,
  ...changes,
});
