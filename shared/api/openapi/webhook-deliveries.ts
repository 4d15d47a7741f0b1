import { z } from 'zod';
import { ENTITY_TYPES } from '../../domain/levels';
import { DELIVERY_ATTEMPTS, RETRY_DELAYS_SECONDS, WEBHOOK_TIMEOUT_MS } from '../../domain/webhooks/retry-schedule';
import type { WebhookEventKind } from '../../domain/webhooks/subscription';
import type { Convert } from './schema-converter';
import { historyEntry } from './status-history-schemas';

/**
 * The deliveries the service POSTs to a subscription's URL (the document's `webhooks`): their Standard Webhooks
 * headers, their bodies as the dispatcher renders them, and what the receiver's answer means.
 */

const entity = z
  .string()
  .regex(new RegExp(`^(${ENTITY_TYPES.join('|')})#\\d+$`))
  .describe('the entity, as status.do and history.do name it');
const eventType = (kind: WebhookEventKind) => z.literal(kind).describe('the event kind');

const reachedShown = z
  .object({
    entity,
    field: z.string().describe('the cap reached'),
    actionId: z.int().optional().describe('per-action caps: the action'),
    cap: z.number().describe("the cap's value"),
    counter: z.number().describe('the counter when it crossed, exact (money in its decimal units)'),
  })
  .describe('a cap the subscriber may see');
const reachedHidden = z
  .object({ entity, hidden: z.literal(true).describe('always true: the cap, its value and counter are not told') })
  .describe("a cap the subscriber's permissions hide: only that the entity stops delivering");

export const limitReachedDelivery = z
  .object({
    type: eventType('limit.reached'),
    timestamp: z.string().describe('when the crossing was decided (ISO 8601, UTC)'),
    data: z.union([reachedShown, reachedHidden]).describe('the crossing, as status.do names it to the subscriber'),
  })
  .meta({ id: 'LimitReachedDelivery' });

export const limitChangedDelivery = z
  .object({
    type: eventType('limit.changed'),
    timestamp: z.string().describe('when the change was made (ISO 8601, UTC)'),
    data: z
      .object({
        entity,
        changeId: z.string().describe("the change's id in the entity's history; also its webhook-id"),
        change: historyEntry,
      })
      .describe('the change, as history.do shows it to the subscriber'),
  })
  .meta({ id: 'LimitChangedDelivery' });

const BASE64 = '[A-Za-z0-9+/]+={0,2}';

/** The three Standard Webhooks headers, each required. */
const HEADERS = [
  {
    name: 'webhook-id',
    description: "the event's id: the same on every attempt and repeat of one event; drop repeats by it",
    schema: { type: 'string', minLength: 1 },
  },
  {
    name: 'webhook-timestamp',
    description: 'when this attempt was signed, in whole seconds since 1970 (UTC); refuse one 5 minutes off your clock',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  {
    name: 'webhook-signature',
    description:
      '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed by the bytes of the secret (the base64 after `whsec_`); after a rotation one per secret still valid, separated by spaces',
    schema: { type: 'string', pattern: `^v1,${BASE64}( v1,${BASE64})*$` },
  },
].map((header) => ({ ...header, in: 'header', required: true }));

const retryText = RETRY_DELAYS_SECONDS.map((seconds) =>
  seconds < 60 ? `${seconds} s` : seconds < 3600 ? `${seconds / 60} min` : `${seconds / 3600} h`,
).join(', ');

const RESPONSES = {
  '2XX': { description: 'Delivered: the event is not sent again. Answer first, then do the work.' },
  default: {
    description: `Any other status (a redirect too, never followed), or no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s: the attempt failed and is retried ${retryText} later with the same webhook-id (${DELIVERY_ATTEMPTS} attempts in all), then the delivery waits for the operator's replay. Until an attempt succeeds again, the subscription's new deliveries wait their turn in a slower lane of their own: a failing endpoint delays only its own deliveries.`,
  },
};

const EXAMPLE_AT = '2026-11-25T10:00:00.000Z';

const EXAMPLES: Record<WebhookEventKind, Record<string, { summary: string; value: unknown }>> = {
  'limit.reached': {
    shown: {
      summary: 'A daily click cap crossed',
      value: {
        type: 'limit.reached',
        timestamp: EXAMPLE_AT,
        data: { entity: 'CAMPAIGN#100', field: 'dailyClicksLimit', cap: 10, counter: 10 },
      },
    },
    hidden: {
      summary: "A cap the subscriber's permissions hide",
      value: { type: 'limit.reached', timestamp: EXAMPLE_AT, data: { entity: 'CAMPAIGN#100', hidden: true } },
    },
  },
  'limit.changed': {
    updated: {
      summary: 'A daily click cap raised',
      value: {
        type: 'limit.changed',
        timestamp: EXAMPLE_AT,
        data: {
          entity: 'CAMPAIGN#100',
          changeId: 'CAMPAIGN#100#V#000000000004',
          change: {
            at: EXAMPLE_AT,
            operation: 'update',
            by: { userId: 1, username: 'demo', method: 'apiKey' },
            fields: { dailyClicksLimit: { from: 5, to: 10 } },
          },
        },
      },
    },
  },
};

const SUMMARIES: Record<WebhookEventKind, string> = {
  'limit.reached': 'A cap was reached: the entity stops delivering',
  'limit.changed': "An entity's limits were changed",
};

const OPERATION_IDS: Record<WebhookEventKind, string> = {
  'limit.reached': 'limitReachedWebhook',
  'limit.changed': 'limitChangedWebhook',
};

const BODIES = { 'limit.reached': limitReachedDelivery, 'limit.changed': limitChangedDelivery } as const;

/** The document's `webhooks`: one POST per event kind, as a subscribed receiver gets it. */
export const webhookDeliveries = (jsonSchema: Convert) =>
  Object.fromEntries(
    (Object.keys(BODIES) as WebhookEventKind[]).map((kind) => [
      kind,
      {
        post: {
          operationId: OPERATION_IDS[kind],
          tags: ['webhooks'],
          summary: SUMMARIES[kind],
          description: `Sent to each active subscription to ${kind} for this entity, as the subscriber may read it when the delivery is sent. Verify the signature on the raw body before parsing it.`,
          security: [],
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(BODIES[kind]), examples: EXAMPLES[kind] } },
          },
          responses: RESPONSES,
        },
      },
    ]),
  );
