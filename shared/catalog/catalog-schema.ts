import { z } from 'zod';
import {
  ACCESS_LEVELS,
  DEMAND_CAP_PERMISSIONS,
  GENERAL_PERMISSIONS,
  INVENTORY_CAP_PERMISSIONS,
  PERMISSION_LEVELS,
} from '../domain/permissions';
import { ENTITY_TYPES } from '../domain/levels';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const level = z.enum(PERMISSION_LEVELS);
const threshold = z.number().int().min(0).max(4_000_000_000).default(0);
const permissionMap = <T extends readonly string[]>(names: T) =>
  z.partialRecord(z.enum(names as unknown as [string, ...string[]]), level).default({});

const user = z.strictObject({
  id,
  username: z.string().min(1).max(256),
  password: z.string().min(1).max(256),
  email: z.email().max(320).optional(),
  role: z.string().min(1).max(64).default('ADVERTISER'),
  active: z.boolean().default(true),
  apiKeys: z.array(z.string().min(8).max(256)).default([]),
  permissions: permissionMap([...GENERAL_PERMISSIONS, ...DEMAND_CAP_PERMISSIONS]),
  inventoryPermissions: permissionMap(INVENTORY_CAP_PERMISSIONS),
  access: z.array(z.strictObject({ type: z.enum(ENTITY_TYPES), id, level: z.enum(ACCESS_LEVELS) })).default([]),
});

const noConversionThresholds = { noConversionHoursThreshold: threshold, noConversionImpressionsThreshold: threshold };

export const catalogSchema = z.strictObject({
  users: z.array(user).default([]),
  advertisers: z
    .array(z.strictObject({ id, deleted: z.boolean().default(false), ...noConversionThresholds }))
    .default([]),
  campaigns: z
    .array(
      z.strictObject({
        id,
        advertiserId: id,
        active: z.boolean().default(true),
        deleted: z.boolean().default(false),
        ...noConversionThresholds,
      }),
    )
    .default([]),
  banners: z
    .array(z.strictObject({ id, campaignId: id, deleted: z.boolean().default(false), ...noConversionThresholds }))
    .default([]),
  sites: z.array(z.strictObject({ id, deleted: z.boolean().default(false) })).default([]),
  placements: z.array(z.strictObject({ id, siteId: id, deleted: z.boolean().default(false) })).default([]),
  actions: z.array(z.strictObject({ id, name: z.string().max(256).default('') })).default([]),
});

export type Catalog = z.infer<typeof catalogSchema>;
export type CatalogUser = Catalog['users'][number];
