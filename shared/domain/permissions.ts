/** General permission names exactly as the spec writes them; each cap's own permission comes from its grid. */
import { DEMAND_GRID, SUPPLY_GRID } from './limits/cap-grid';

export const MANAGE_CAPPING = 'Manage Capping & Limitations';
export const MANAGE_SITE_LIMITS = 'Manage Site and Placement Limits';
export const CAMPAIGN_PER_ACTION = 'Campaign Per Action Limit';
export const INVENTORY_PER_ACTION = 'Inventory Per Action Limit';

export const GENERAL_PERMISSIONS = [
  MANAGE_CAPPING,
  MANAGE_SITE_LIMITS,
  CAMPAIGN_PER_ACTION,
  INVENTORY_PER_ACTION,
] as const;

export const DEMAND_CAP_PERMISSIONS: readonly string[] = DEMAND_GRID.caps.map((cap) => cap.permission);
export const INVENTORY_CAP_PERMISSIONS: readonly string[] = SUPPLY_GRID.caps.map((cap) => cap.permission);

export const PERMISSION_LEVELS = ['ENABLED', 'READONLY', 'DISABLED'] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

export const ACCESS_LEVELS = ['UPDATE', 'READ'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];
