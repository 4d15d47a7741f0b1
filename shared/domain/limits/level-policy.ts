import {
  inventoryPermissionLevel,
  permissionLevel,
  requirePermission,
  type Grants,
} from '../access';
import {
  CAMPAIGN_PER_ACTION,
  INVENTORY_PER_ACTION,
  MANAGE_CAPPING,
  MANAGE_SITE_LIMITS,
  type PermissionLevel,
} from '../permissions';
import type { LimitLevel } from '../../api/route-table';
import type { EntityType } from '../../table/keys';
import { DEMAND_GRID, SUPPLY_GRID, type CapDefinition, type CapGrid } from './cap-grid';
import type { CapPolicy } from './limit-change';
import type { ViewPolicy } from './limit-view';

const READ_OR_WRITE: readonly PermissionLevel[] = ['ENABLED', 'READONLY'];
const WRITE: readonly PermissionLevel[] = ['ENABLED'];

/** What differs between levels, as data: the grid, the permissions and what a forbidden change does. */
export interface LevelPolicy {
  level: LimitLevel;
  entityType: EntityType;
  /** `campaignId`, `siteId` …: the path parameter and the id field of the read shape. */
  idField: string;
  grid: CapGrid;
  /** Permission that guards per-action counters of this level (for ALL_ACTION_LIMITS). */
  perActionPermission: string;
  capPermission(grants: Grants, cap: CapDefinition): PermissionLevel;
  requireRead(grants: Grants): void;
  /** `creating`: the record does not exist yet. */
  requireWrite(grants: Grants, creating: boolean): void;
  requireDelete(grants: Grants): void;
  requireReset(grants: Grants): void;
  capPolicy(grants: Grants): CapPolicy;
  viewPolicy(grants: Grants): ViewPolicy;
}

const ALL_COUNTERS: ReadonlySet<string> = new Set([...DEMAND_GRID.caps, ...SUPPLY_GRID.caps].map((cap) => cap.counter));

const SUPPLY_REFUSED: ReadonlyMap<string, string> = new Map(
  DEMAND_GRID.caps
    .filter((cap) => cap.metric === 'budget' || cap.metric === 'opportunities')
    .map((cap) => [cap.name, `${cap.metric === 'budget' ? 'budget' : 'opportunity'} caps do not exist on sites and placements`]),
);

const require = (grants: Grants, name: string, accepted: readonly PermissionLevel[]) =>
  requirePermission(permissionLevel(grants, name), name, accepted);

const demandPolicy = (level: LimitLevel, entityType: EntityType): LevelPolicy => {
  const capPermission = (grants: Grants, cap: CapDefinition) => permissionLevel(grants, cap.permission);
  return {
    level,
    entityType,
    idField: `${level}Id`,
    grid: DEMAND_GRID,
    perActionPermission: CAMPAIGN_PER_ACTION,
    capPermission,
    requireRead: (grants) => require(grants, MANAGE_CAPPING, READ_OR_WRITE),
    requireWrite: (grants) => require(grants, MANAGE_CAPPING, WRITE),
    requireDelete: (grants) => require(grants, MANAGE_CAPPING, WRITE),
    requireReset: (grants) => require(grants, MANAGE_CAPPING, WRITE),
    capPolicy: (grants) => ({
      grid: DEMAND_GRID,
      allCounters: ALL_COUNTERS,
      refusedCaps: new Map(),
      permissionOf: (cap) => capPermission(grants, cap),
      forbiddenChange: 'ignore',
    }),
    viewPolicy: (grants) => ({ grid: DEMAND_GRID, permissionOf: (cap) => capPermission(grants, cap), reportHidden: false }),
  };
};

const supplyPolicy = (level: LimitLevel, entityType: EntityType): LevelPolicy => {
  const capPermission = (grants: Grants, cap: CapDefinition) => inventoryPermissionLevel(grants, cap.permission);
  return {
    level,
    entityType,
    idField: `${level}Id`,
    grid: SUPPLY_GRID,
    perActionPermission: INVENTORY_PER_ACTION,
    capPermission,
    requireRead: (grants) => require(grants, MANAGE_SITE_LIMITS, READ_OR_WRITE),
    requireWrite: (grants, creating) => {
      require(grants, MANAGE_SITE_LIMITS, READ_OR_WRITE);
      if (creating) require(grants, MANAGE_CAPPING, WRITE);
    },
    requireDelete: (grants) => {
      require(grants, MANAGE_SITE_LIMITS, READ_OR_WRITE);
      require(grants, MANAGE_CAPPING, WRITE);
    },
    requireReset: (grants) => require(grants, MANAGE_SITE_LIMITS, READ_OR_WRITE),
    capPolicy: (grants) => ({
      grid: SUPPLY_GRID,
      allCounters: ALL_COUNTERS,
      refusedCaps: SUPPLY_REFUSED,
      permissionOf: (cap) => capPermission(grants, cap),
      forbiddenChange: 'refuse',
    }),
    viewPolicy: (grants) => ({ grid: SUPPLY_GRID, permissionOf: (cap) => capPermission(grants, cap), reportHidden: true }),
  };
};

export const LEVEL_POLICIES: Readonly<Record<LimitLevel, LevelPolicy>> = {
  advertiser: demandPolicy('advertiser', 'ADVERTISER'),
  campaign: demandPolicy('campaign', 'CAMPAIGN'),
  banner: demandPolicy('banner', 'BANNER'),
  site: supplyPolicy('site', 'SITE'),
  placement: supplyPolicy('placement', 'PLACEMENT'),
};
