import { z } from 'zod';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const REVENUE = /^\d{1,13}(\.\d{1,3})?$/;

export const DELIVERY_KINDS = ['impression', 'click', 'conversion', 'opportunity', 'request'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

export const deliveryEventSchema = z
  .strictObject({
    kind: z.enum(DELIVERY_KINDS),
    bannerId: id.optional(),
    placementId: id.optional(),
    actionId: id.optional(),
    /** A decimal with at most three places, as a string (or a number that prints as one). */
    revenue: z
      .union([z.string(), z.number()])
      .transform((value) => String(value))
      .refine((value) => REVENUE.test(value), 'revenue must be a non-negative decimal with at most 3 places')
      .optional(),
    count: z.number().int().min(1).max(1_000_000).default(1),
    at: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((event) => event.bannerId !== undefined || event.placementId !== undefined, 'bannerId or placementId is required')
  .refine((event) => event.kind !== 'request' || event.placementId !== undefined, 'request events count on the supply side only: placementId is required')
  .refine((event) => event.actionId === undefined || event.kind === 'conversion', 'actionId goes with conversion events only');

export type DeliveryEvent = z.infer<typeof deliveryEventSchema>;

/** Revenue in thousandths, an integer, so that sums are exact: 1,000 × "0.001" is exactly 1000. */
export const revenueMillis = (revenue: string | undefined): number => {
  if (revenue === undefined) return 0;
  const [whole, fraction = ''] = revenue.split('.');
  return Number(whole) * 1000 + Number(fraction.padEnd(3, '0'));
};

/** Thousandths back to an exact decimal string for DynamoDB. */
export const millisToDecimal = (millis: number): string => {
  const whole = Math.floor(millis / 1000);
  const fraction = String(millis % 1000).padStart(3, '0');
  return `${whole}.${fraction}`;
};

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
    events.push(parsed.data);
  }
  return { ok: true, events };
};
