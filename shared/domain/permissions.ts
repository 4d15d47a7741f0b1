/** Permission names exactly as the spec writes them. */

export const MANAGE_CAPPING = 'Manage Capping & Limitations';
export const MANAGE_SITE_LIMITS = 'Manage Site and Placement Limits';
export const CAMPAIGN_PER_ACTION = 'Campaign Per Action Limit';
export const INVENTORY_PER_ACTION = 'Inventory Per Action Limit';

export const GENERAL_PERMISSIONS = [MANAGE_CAPPING, MANAGE_SITE_LIMITS, CAMPAIGN_PER_ACTION, INVENTORY_PER_ACTION] as const;

export const PERIOD_WORDS = ['Daily', 'Weekly', 'Monthly', 'Total'] as const;

const budgetPermission = (period: (typeof PERIOD_WORDS)[number]): string => (period === 'Total' ? 'Budget' : `${period} Budget`);

export const DEMAND_CAP_PERMISSIONS: readonly string[] = PERIOD_WORDS.flatMap((period) => [
  ...['Impressions', 'Clicks', 'Conversions', 'Opportunities'].map((metric) => `${period} ${metric} Limit`),
  budgetPermission(period),
]);

export const INVENTORY_CAP_PERMISSIONS: readonly string[] = PERIOD_WORDS.flatMap((period) =>
  ['Requests', 'Impressions', 'Clicks', 'Conversions'].map((metric) => `${period} ${metric} Limit`),
);

export const PERMISSION_LEVELS = ['ENABLED', 'READONLY', 'DISABLED'] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

export const ACCESS_LEVELS = ['UPDATE', 'READ'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];
