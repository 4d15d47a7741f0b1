import {
  inventoryPermissionLevel,
  permissionDecision,
  permissionLevel,
  type Grants,
  type PermissionDecision,
} from '../access';
import { LEVELS, type LevelDefinition, type LimitLevel } from '../levels';
import { MANAGE_CAPPING, MANAGE_SITE_LIMITS, type PermissionLevel } from '../permissions';
import { DEMAND_GRID, SUPPLY_GRID, type CapDefinition } from './cap-grid';
import type { CapPolicy } from './limit-change';
import type { ViewPolicy } from './limit-view';

const READ_OR_WRITE: readonly PermissionLevel[] = ['ENABLED', 'READONLY'];
const WRITE: readonly PermissionLevel[] = ['ENABLED'];

/** What differs between the two sides as permissions: who may read, write, delete and reset, and how caps are guarded. */
export interface LevelPolicy extends LevelDefinition {
  capPermission(grants: Grants, cap: CapDefinition): PermissionLevel;
  read(grants: Grants): PermissionDecision;
  /** `creating`: the record does not exist yet. */
  write(grants: Grants, creating: boolean): PermissionDecision;
  delete(grants: Grants): PermissionDecision;
  reset(grants: Grants): PermissionDecision;
  capPolicy(grants: Grants): CapPolicy;
  viewPolicy(grants: Grants): ViewPolicy;
}

const ALL_COUNTERS: ReadonlySet<string> = new Set([...DEMAND_GRID.caps, ...SUPPLY_GRID.caps].map((cap) => cap.counter));

const SUPPLY_REFUSED: ReadonlyMap<string, string> = new Map(
  DEMAND_GRID.caps
    .filter((cap) => !SUPPLY_GRID.caps.some((other) => other.metric === cap.metric))
    .map((cap) => [
      cap.name,
      `${cap.metric === 'budget' ? 'budget' : 'opportunity'} caps do not exist on sites and placements`,
    ]),
);

const needs = (grants: Grants, name: string, accepted: readonly PermissionLevel[]) =>
  permissionDecision(permissionLevel(grants, name), name, accepted);

/** The first refusal among checks, or allowed. */
const allOf = (...decisions: PermissionDecision[]): PermissionDecision =>
  decisions.find((decision) => !decision.allowed) ?? { allowed: true };

const demandPolicy = (level: LevelDefinition): LevelPolicy => {
  const capPermission = (grants: Grants, cap: CapDefinition) => permissionLevel(grants, cap.permission);
  return {
    ...level,
    capPermission,
    read: (grants) => needs(grants, MANAGE_CAPPING, READ_OR_WRITE),
    write: (grants) => needs(grants, MANAGE_CAPPING, WRITE),
    delete: (grants) => needs(grants, MANAGE_CAPPING, WRITE),
    reset: (grants) => needs(grants, MANAGE_CAPPING, WRITE),
    capPolicy: (grants) => ({
      grid: level.grid,
      allCounters: ALL_COUNTERS,
      refusedCaps: new Map(),
      permissionOf: (cap) => capPermission(grants, cap),
      forbiddenChange: 'ignore',
    }),
    viewPolicy: (grants) => ({
      grid: level.grid,
      permissionOf: (cap) => capPermission(grants, cap),
      reportHidden: false,
    }),
  };
};

const supplyPolicy = (level: LevelDefinition): LevelPolicy => {
  const capPermission = (grants: Grants, cap: CapDefinition) => inventoryPermissionLevel(grants, cap.permission);
  return {
    ...level,
    capPermission,
    read: (grants) => needs(grants, MANAGE_SITE_LIMITS, READ_OR_WRITE),
    write: (grants, creating) =>
      allOf(
        needs(grants, MANAGE_SITE_LIMITS, READ_OR_WRITE),
        creating ? needs(grants, MANAGE_CAPPING, WRITE) : { allowed: true },
      ),
    delete: (grants) => allOf(needs(grants, MANAGE_SITE_LIMITS, READ_OR_WRITE), needs(grants, MANAGE_CAPPING, WRITE)),
    reset: (grants) => needs(grants, MANAGE_SITE_LIMITS, READ_OR_WRITE),
    capPolicy: (grants) => ({
      grid: level.grid,
      allCounters: ALL_COUNTERS,
      refusedCaps: SUPPLY_REFUSED,
      permissionOf: (cap) => capPermission(grants, cap),
      forbiddenChange: 'refuse',
    }),
    viewPolicy: (grants) => ({
      grid: level.grid,
      permissionOf: (cap) => capPermission(grants, cap),
      reportHidden: true,
    }),
  };
};

const POLICIES: ReadonlyMap<LimitLevel, LevelPolicy> = new Map(
  LEVELS.map((level) => [level.level, level.side === 'demand' ? demandPolicy(level) : supplyPolicy(level)]),
);

/** The policy of a level, built from its row of the level table. */
export const levelPolicy = (name: LimitLevel): LevelPolicy => POLICIES.get(name)!;
