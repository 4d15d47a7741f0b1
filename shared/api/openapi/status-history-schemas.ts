import { z } from 'zod';
import { HISTORY_OPERATIONS } from '../../domain/history/limit-history';

/** status.do's answer: whether the entity is deliverable, why not, and how each cap it may see is pacing. */
export const servingStatus = z.object({
  deliverable: z.boolean(),
  reasons: z.array(
    z
      .object({
        entity: z.string(),
        field: z.string().optional().describe('absent when the reason is hidden from the caller'),
        hidden: z.literal(true).optional().describe('the caller may not see this reason: only that the entity stops'),
        cap: z.number().optional(),
        counter: z.number().optional(),
      })
      .catchall(z.unknown()),
  ),
  pacing: z
    .array(
      z.object({
        field: z.string(),
        cap: z.number(),
        counter: z.number(),
        periodStart: z.string(),
        periodEnd: z.string(),
        expected: z.number().describe('cap × the elapsed share of the period: what even pacing would have delivered'),
        pace: z.number().nullable().describe('counter / expected; null while expected is 0'),
        rateBasis: z.literal('period').describe('the rate is the average since the period began'),
        ratePerHour: z.number(),
        projectedAtPeriodEnd: z.number(),
        projectedReachAt: z
          .string()
          .nullable()
          .describe('when the counter reaches the cap at that rate; null if not in the period'),
      }),
    )
    .describe(
      'one entry per non-zero cap the caller may see: daily, weekly, monthly, and totals of limits with both dates',
    ),
  countersAsOf: z.string(),
});

export const historyQuery = z.object({
  limit: z.int().min(1).max(500).optional().describe('entries per page, 50 when omitted'),
  before: z.string().optional().describe('the `next` cursor of the previous page; anything else is a 400'),
});

/** One entry of a limit's history, as history.do shows it and a limit.changed delivery carries it. */
export const historyEntry = z
  .object({
    at: z.string().describe('when the change was made (a reset: when it was asked for)'),
    operation: z.enum(HISTORY_OPERATIONS),
    by: z
      .object({ userId: z.int(), username: z.string(), method: z.string() })
      .describe('who made it, and how they authenticated (apiKey, hash or session)'),
    fields: z
      .record(z.string(), z.object({ from: z.unknown(), to: z.unknown() }))
      .optional()
      .describe('each setting changed, from its old value to its new one (null: not set); dates in UTC'),
    ignoredFields: z.array(z.string()).optional().describe('caps the write sent and this level ignored'),
    limitCounters: z.array(z.string()).optional().describe('reset: the counters named'),
    appliedAt: z.string().optional().describe('reset: when the hourly flush applied it'),
    actionId: z.int().optional().describe('per-action add and update: the action'),
    actionIds: z.array(z.int()).optional().describe('per-action delete: the actions whose limits went'),
  })
  .describe(
    'one change; fields of caps the caller may not see are left out, and so are changes that touched nothing else',
  );

export const historyPage = z.object({
  success: z.literal(true),
  changes: z
    .array(historyEntry)
    .describe('newest first; a page may hold fewer than `limit` entries while `next` is present'),
  next: z.string().optional().describe('pass as `before` for the next, older page; absent on the last page'),
});
