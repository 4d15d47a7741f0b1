import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../error-codes';
import { ENTITY_TYPES } from '../../domain/levels';
import { DEMAND_GRID, SUPPLY_GRID, type CapDefinition, type CapGrid } from '../../domain/limits/cap-grid';
import { LIMIT_DATE_PATTERN, MAX_TIMEZONE_OFFSET, MIN_TIMEZONE_OFFSET } from '../../domain/limits/limit-dates';
import { RESET_NAMES } from '../../domain/resets/reset-names';

/** Where schemas keep their metadata: `.describe()` texts and, for the named ones, the component id. */
export const schemaRegistry = z.globalRegistry;

/** Schemas registered here become named components of the document instead of being repeated inline. */
const named = <T extends z.ZodType>(id: string, schema: T): T => {
  schemaRegistry.add(schema, { ...schemaRegistry.get(schema), id });
  return schema;
};

const memo = new Map<string, z.ZodType>();
/** One instance per id, so that every operation refers to the same component. */
const once = <T extends z.ZodType>(id: string, build: () => T): T => {
  if (!memo.has(id)) memo.set(id, named(id, build()));
  return memo.get(id) as T;
};

const title = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Schemas for the API reference, built from the same grids and constants the handlers use, so that the document
 * cannot describe a cap, a limit or a name the service does not have.
 */

const dateText = z
  .string()
  .regex(LIMIT_DATE_PATTERN)
  .describe('yyyy-MM-dd-HH-mm or yyyy-MM-dd HH:mm; GMT+0 unless useLocalTime');
/** Sent as text in a form or query: `true`/`false`, and also 1/0, yes/no, on/off, in any case. */
export const booleanText = z
  .boolean()
  .describe('true or false; 1/0, yes/no and on/off are read too, in any case; anything else is a 400');
/** Sent repeated (`ids=1&ids=2`), comma-separated (`ids=1,2`) or bracketed (`ids[]=1`, `ids[0]=1`). */
export const idArray = z
  .array(z.int().positive())
  .describe('repeated (ids=1&ids=2), comma-separated (1,2) or bracketed (ids[]=1, ids[0]=1)');

const capValue = (cap: CapDefinition) =>
  (cap.valueType === 'count'
    ? z.int().min(0).max(cap.maximum)
    : z.number().min(0).max(cap.maximum).multipleOf(0.001)
  ).describe(
    `${cap.period} ${cap.metric === 'budget' ? 'budget' : cap.metric} cap; 0 means no cap. Permission: ${cap.permission}`,
  );

export const limitWriteForm = (grid: CapGrid) =>
  once(grid === SUPPLY_GRID ? 'SupplyLimitForm' : 'DemandLimitForm', () => buildWriteForm(grid));

const buildWriteForm = (grid: CapGrid) =>
  z.object({
    ...Object.fromEntries(grid.caps.map((cap) => [cap.name, capValue(cap).optional()])),
    startDate: dateText.optional(),
    endDate: dateText.optional(),
    removeStartDateLimit: booleanText.optional().describe('clears the stored start date; wins over startDate'),
    removeEndDateLimit: booleanText.optional().describe('clears the stored end date; wins over endDate'),
    evenPacing: booleanText.optional(),
    useLocalTime: booleanText
      .optional()
      .describe("read this request's dates in timezoneOffset; omitted keeps the stored setting"),
    timezoneOffset: z
      .int()
      .min(MIN_TIMEZONE_OFFSET)
      .max(MAX_TIMEZONE_OFFSET)
      .optional()
      .describe('minutes east of UTC'),
    dryRun: booleanText
      .optional()
      .describe(
        'true: every check runs and the answer is the write\'s own plus "dryRun": true, but nothing is written',
      ),
  });

export const limitReadShape = (grid: CapGrid, idField: string) =>
  once(`${title(idField.replace(/Id$/, ''))}Limit`, () => buildReadShape(grid, idField));

const buildReadShape = (grid: CapGrid, idField: string) =>
  z.object({
    [idField]: z.int(),
    id: z.int().optional().describe('the limit record id'),
    limitsSet: z.boolean(),
    startDate: z
      .string()
      .optional()
      .describe('yyyy-MM-dd-HH-mm, UTC unless the read passed timezoneOffset and the limit is on local time'),
    endDate: z.string().optional(),
    evenPacing: z.boolean().optional(),
    useLocalTime: z.boolean().optional(),
    timezoneOffset: z.int().optional().describe('echoed when the dates are shown in it'),
    ...Object.fromEntries(
      grid.caps.flatMap((cap) => [
        [cap.name, capValue(cap).optional()],
        [cap.counter, z.number().min(0).optional().describe(`counter of ${cap.name}`)],
      ]),
    ),
    ...(grid === SUPPLY_GRID
      ? {
          fieldsHiddenByPermission: z
            .record(z.string(), z.string())
            .optional()
            .describe('hidden cap → permission it needs'),
        }
      : {}),
  });

export const writeResult = (grid: CapGrid, idField: string) =>
  once(`${title(idField.replace(/Id$/, ''))}LimitWriteResult`, () =>
    buildReadShape(grid, idField).extend({
      success: z.literal(true),
      ignoredFields: z.array(z.string()).optional(),
      ignoredFieldReasons: z.record(z.string(), z.string()).optional(),
      dryRun: z.literal(true).optional().describe('present when dryRun=true: nothing was written'),
    }),
  );

export const resetForm = z.object({
  limitCounters: z
    .array(z.enum([...RESET_NAMES] as [string, ...string[]]))
    .min(1)
    .describe(
      'the counters to set to 0 at the next hourly flush: repeated, comma-separated or bracketed; ALL_LIMITS is every delivery counter, ALL_ACTION_LIMITS every per-action counter, ALL both, NO_CONVERSIONS_* the no-conversion state',
    ),
});

export const successMessage = z.object({ success: z.literal(true), message: z.string() }).catchall(z.unknown());

export const errorEnvelope = named(
  'ErrorEnvelope',
  z.object({
    success: z.literal(false),
    code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]).describe(
      `stable and machine-readable (\`message\` is for people and may change): ${Object.entries(ERROR_CODES)
        .map(([code, { status, meaning, fix }]) => `${code} (${status}): ${meaning}; ${fix}.`)
        .join(' ')}`,
    ),
    message: z.string().describe('for people; may change'),
    requestId: z.string().optional().describe('on every error: the X-Request-Id of the answer, to quote'),
    serverTime: z
      .number()
      .int()
      .optional()
      .describe("on a refused credential (401): the server's time, Unix milliseconds, to compare a signing clock with"),
    errors: z
      .record(z.string(), z.string())
      .optional()
      .describe('the offending parameters, each with why (a name longer than 64 characters as its first 64 and `…`)'),
    permission: z.string().optional().describe('the permission a 403 is about'),
    permissionDenied: z.boolean().optional().describe('on every per-action 403'),
    error: z.string().optional().describe('auth failures'),
  }),
);

export const bulkCampaignQuery = z.object({
  campaignIds: idArray.optional().describe('omitted: every campaign the caller can access'),
  startDateFrom: dateText.optional(),
  startDateTo: dateText.optional(),
  activeCampaignOnly: booleanText.optional(),
});

export const bulkCampaignResult = z.object({
  success: z.literal(true),
  limits: z.array(limitReadShape(DEMAND_GRID, 'campaignId')).optional(),
  withNoLimits: z.array(z.int()),
  notFound: z.string().optional(),
  notFoundIds: z.array(z.int()).optional(),
  accessForbidden: z.string().optional(),
  accessForbiddenIds: z.array(z.int()).optional(),
});

export const actionLimitEntry = named(
  'ActionLimit',
  z.object({
    id: z.int(),
    entityId: z.int(),
    actionId: z.int(),
    dailyConversionsLimit: z.int().min(0),
    totalConversionsLimit: z.int().min(0),
    dailyConversions: z.int().min(0),
    totalConversions: z.int().min(0),
  }),
);

export const perActionForm = z.object({
  actionId: z.int().positive(),
  dailyConversionsLimit: z.int().min(0).optional(),
  totalConversionsLimit: z.int().min(0).optional(),
  dryRun: booleanText.optional().describe('true: every check runs, nothing is written'),
});

export const entityTypeParameter = z.enum(ENTITY_TYPES).describe('exact upper case');
