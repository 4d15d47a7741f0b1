import { z } from 'zod';
import { DEMAND_GRID } from '../../domain/limits/cap-grid';
import { levelNamed, type LimitLevel } from '../../domain/levels';
import { MAX_IDS_PER_DELETE } from '../../domain/per-action/per-action-change';
import type { Operation, Route } from '../route-table';
import type { Schema } from './schema-converter';
import { WEBHOOK_SPECS } from './webhook-specs';
import {
  booleanText,
  idArray,
  actionLimitEntry,
  bulkCampaignQuery,
  bulkCampaignResult,
  entityTypeParameter,
  limitReadShape,
  limitWriteForm,
  perActionForm,
  resetForm,
  successMessage,
  writeResult,
} from './schemas';
import { historyPage, historyQuery, servingStatus } from './status-history-schemas';

/** What an operation takes (query string, form) and answers (its 200 body and its own error statuses). */
export interface OperationSpec {
  query?: z.ZodObject;
  form?: z.ZodObject;
  /** The 200 body. */
  response: Schema;
  errors: number[];
}

type Specs<Name extends Operation> = Record<Name, () => OperationSpec>;

const dryRunMark = z.literal(true).optional().describe('present when dryRun=true: nothing was written');

const perActionWriteResult = z.object({
  success: z.literal(true),
  actionLimit: actionLimitEntry
    .partial({ id: true })
    .describe('the record; a dry run that would create it answers it without `id`'),
  actionLimitsEnabled: z.boolean().optional(),
  dryRun: dryRunMark,
});

const actionSwitchSpec = () => ({
  response: z.object({
    success: z.literal(true),
    entityId: z.int(),
    actionLimitsEnabled: z.boolean(),
    dryRun: dryRunMark,
  }),
  errors: [400, 401, 403, 404],
});

const AUTH_SPECS: Specs<'auth.token' | 'auth.login' | 'auth.forgot' | 'auth.resetPassword'> = {
  'auth.token': () => ({
    form: z.object({ username: z.string().max(256), password: z.string().max(256) }),
    response: z.object({ success: z.literal(true), authToken: z.string().regex(/^[0-9a-f]{32}$/), role: z.string() }),
    errors: [400, 401],
  }),
  'auth.login': () => ({
    query: z.object({
      json: booleanText.optional().describe('true: answer JSON instead of redirecting'),
      callback: z.string().max(64).optional().describe('JSONP: a plain identifier path such as app.onLogin'),
    }),
    response: z.object({ success: z.boolean(), redirectUrl: z.string().optional(), error: z.string().optional() }),
    errors: [400, 404],
  }),
  'auth.forgot': () => ({
    form: z.object({ email: z.string().max(320).optional() }),
    response: successMessage,
    errors: [400],
  }),
  'auth.resetPassword': () => ({
    form: z.object({ token: z.string(), password: z.string().min(10).max(256) }),
    response: successMessage,
    errors: [400, 404],
  }),
};

/** The limit operations; those of one level read and write that level's grid. */
const limitSpecs = (level: LimitLevel | undefined): Specs<Extract<Operation, `limits.${string}`>> => {
  const idField = level ? levelNamed(level).idField : '';
  const grid = () => levelNamed(level!).grid;
  return {
    'limits.read': () => ({
      query: z.object({ timezoneOffset: z.int().min(-840).max(840).optional() }),
      response: limitReadShape(grid(), idField),
      errors: [400, 401, 403, 404],
    }),
    'limits.set': () => ({
      form: limitWriteForm(grid()),
      response: writeResult(grid(), idField),
      errors: [400, 401, 403, 404],
    }),
    'limits.update': () => ({
      form: limitWriteForm(grid()),
      response: writeResult(grid(), idField),
      errors: [400, 401, 403, 404],
    }),
    'limits.reset': () => ({ form: resetForm, response: successMessage, errors: [400, 401, 403, 404, 503] }),
    'limits.resetByDelete': () => ({ form: resetForm, response: successMessage, errors: [400, 401, 403, 404, 503] }),
    'limits.delete': () => ({ response: successMessage, errors: [401, 403, 404] }),
    'limits.status': () => ({ response: servingStatus, errors: [401, 403, 404] }),
    'limits.history': () => ({ query: historyQuery, response: historyPage, errors: [400, 401, 403, 404] }),
    'limits.bulkCampaigns': () => ({
      query: bulkCampaignQuery,
      response: bulkCampaignResult,
      errors: [400, 401, 403, 404],
    }),
    'limits.bulkBanners': () => ({
      query: z.object({
        bannerIds: idArray.min(1).describe('the banners to read: repeated, comma-separated or bracketed'),
      }),
      response: z.array(limitReadShape(DEMAND_GRID, 'bannerId')),
      errors: [400, 401, 403, 404],
    }),
  };
};

const PER_ACTION_SPECS: Specs<Extract<Operation, `perAction.${string}`>> = {
  'perAction.list': () => ({
    response: z.object({
      success: z.literal(true),
      actionLimits: z.array(actionLimitEntry),
      actionLimitsEnabled: z.boolean().optional(),
    }),
    errors: [400, 401, 403, 404],
  }),
  'perAction.add': () => ({ form: perActionForm, response: perActionWriteResult, errors: [400, 401, 403, 404] }),
  'perAction.update': () => ({
    form: perActionForm,
    response: perActionWriteResult,
    errors: [400, 401, 403, 404],
  }),
  'perAction.delete': () => ({
    form: z.object({
      type: entityTypeParameter,
      entityId: z.int().positive(),
      ids: idArray
        .min(1)
        .max(MAX_IDS_PER_DELETE)
        .describe(
          `the per-action limit ids to delete, all or none: at most ${MAX_IDS_PER_DELETE} (${MAX_IDS_PER_DELETE - 1} with an Idempotency-Key)`,
        ),
    }),
    response: z.object({ success: z.literal(true), deletedIds: z.array(z.int()), dryRun: dryRunMark }),
    errors: [400, 401, 403, 404],
  }),
  'perAction.enable': actionSwitchSpec,
  'perAction.disable': actionSwitchSpec,
};

export const specOf = (route: Route): OperationSpec => {
  const specs: Specs<Operation> = { ...AUTH_SPECS, ...limitSpecs(route.level), ...PER_ACTION_SPECS, ...WEBHOOK_SPECS };
  return specs[route.operation]();
};
