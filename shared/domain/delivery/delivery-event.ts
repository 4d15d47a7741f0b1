// zod/mini rather than classic zod: the recorder's bundle is 16 KB of validation instead of 440 KB
import * as z from 'zod/mini';
import { unitsFromText } from './exact-units';

const REVENUE = /^\d{1,13}(\.\d{1,3})?$/;
const id = (name: string) =>
  z
    .number({ error: `${name} must be a positive integer` })
    .check(
      z.int({ error: `${name} must be a positive integer` }),
      z.positive({ error: `${name} must be a positive integer` }),
      z.maximum(Number.MAX_SAFE_INTEGER),
    );

export const DELIVERY_KINDS = ['impression', 'click', 'conversion', 'opportunity', 'request'] as const;

export const deliveryEventSchema = z
  .strictObject(
    {
      kind: z.enum(DELIVERY_KINDS, { error: `kind must be one of ${DELIVERY_KINDS.join(', ')}` }),
      bannerId: z.optional(id('bannerId')),
      placementId: z.optional(id('placementId')),
      actionId: z.optional(id('actionId')),
      /** A decimal with at most three places, as a string (or a number that prints as one). */
      revenue: z.optional(
        z
          .pipe(
            z.union([z.string(), z.number()], { error: 'revenue must be a decimal string' }),
            z.transform((value) => String(value)),
          )
          .check(
            z.refine((value) => REVENUE.test(value), {
              error: 'revenue must be a non-negative decimal with at most 3 places',
            }),
          ),
      ),
      count: z._default(
        z
          .number({ error: 'count must be a whole number from 1 to 1000000' })
          .check(
            z.int({ error: 'count must be a whole number from 1 to 1000000' }),
            z.minimum(1, { error: 'count must be at least 1' }),
            z.maximum(1_000_000, { error: 'count must be at most 1000000' }),
          ),
        1,
      ),
      at: z.optional(z.iso.datetime({ offset: true, error: 'at must be an ISO-8601 instant' })),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown field ${issue.keys.join(', ')}`
          : 'an event must be a JSON object',
    },
  )
  .check(
    z.refine((event) => event.bannerId !== undefined || event.placementId !== undefined, {
      error: 'bannerId or placementId is required',
    }),
    z.refine((event) => event.kind !== 'request' || event.placementId !== undefined, {
      error: 'request events count on the supply side only: placementId is required',
    }),
    z.refine((event) => event.actionId === undefined || event.kind === 'conversion', {
      error: 'actionId goes with conversion events only',
    }),
  );

export type DeliveryEvent = z.output<typeof deliveryEventSchema>;

/** Revenue in thousandths, a BigInt, so that sums are exact: 1,000 × "0.001" is exactly 1000. */
export const revenueMillis = (revenue: string | undefined): bigint =>
  revenue === undefined ? 0n : unitsFromText(revenue, 1000n);

/**
 * The largest budget one event may add, revenue × count: 9,999,999,999,999.999 (16 significant digits). Anything
 * larger is refused at ingestion, so that no counter is ever fed a value nobody meant.
 */
export const MAX_EVENT_BUDGET_MILLIS = 9_999_999_999_999_999n;

const eventProblem = (event: DeliveryEvent): string | undefined =>
  revenueMillis(event.revenue) * BigInt(event.count) > MAX_EVENT_BUDGET_MILLIS
    ? 'revenue × count must be at most 9999999999999.999'
    : undefined;

export type ParsedMessage = { ok: true; events: DeliveryEvent[] } | { ok: false; reason: string };

/** One SQS message holds one event or an array of events; any invalid event makes the whole message malformed. */
export const parseDeliveryMessage = (body: string): ParsedMessage => {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'body is not JSON' };
  }
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) return { ok: false, reason: 'empty array' };
  const events: DeliveryEvent[] = [];
  for (const [index, item] of list.entries()) {
    const parsed = deliveryEventSchema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const where = [Array.isArray(value) ? `[${index}]` : '', ...issue.path.map(String)].filter(Boolean).join('.');
      return { ok: false, reason: `${where ? `${where}: ` : ''}${issue.message}` };
    }
    const problem = eventProblem(parsed.data);
    if (problem) return { ok: false, reason: `${Array.isArray(value) ? `[${index}]: ` : ''}${problem}` };
    events.push(parsed.data);
  }
  return { ok: true, events };
};
