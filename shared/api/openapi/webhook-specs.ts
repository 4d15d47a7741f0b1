import { z } from 'zod';
import { MAX_SUBSCRIPTIONS_PER_USER } from '../../domain/webhooks/subscription-cap';
import { FILTER_PARAMETERS } from '../../domain/webhooks/subscription-request';
import { WEBHOOK_EVENT_KINDS } from '../../domain/webhooks/subscription';
import { MAX_WEBHOOK_URL_LENGTH } from '../../domain/webhooks/webhook-url';
import type { Operation } from '../route-table';
import { idArray } from './schemas';

const dryRunMark = z.literal(true).optional().describe('present when dryRun=true: nothing was written');

const webhookId = z.string().regex(/^wh_[a-z2-7]{20}$/);
const eventKind = z.enum(WEBHOOK_EVENT_KINDS);
const secret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]{43}=$/)
  .describe('the signing secret (whsec_ and the base64 of 32 bytes): shown in this answer only, store it now');

const subscription = z
  .object({
    id: webhookId,
    url: z.string().describe('where events are POSTed'),
    events: z.array(eventKind).describe('the event kinds delivered'),
    filters: z
      .object(
        Object.fromEntries(
          FILTER_PARAMETERS.map((name) => [
            name,
            z
              .array(z.int().positive())
              .optional()
              .describe(`events of these ${name.replace(/Ids$/, '')}s only`),
          ]),
        ),
      )
      .describe('the entities events are limited to, by level; {} for every entity the owner may read'),
    status: z.enum(['active', 'disabled']).describe('active: delivered to; disabled: switched off, see disabledReason'),
    disabledReason: z.string().optional().describe('why the subscription was switched off (enable.do turns it on)'),
    failureRun: z
      .object({
        since: z.string().describe('the first failed attempt of the run (ISO 8601)'),
        attempts: z.int().min(1).describe('failed attempts in the run'),
      })
      .optional()
      .describe('failed delivery attempts in a row, since the first of them; gone after a success'),
    createdAt: z.string().describe('ISO 8601, UTC'),
    activeSince: z
      .string()
      .describe('since when events are delivered (ISO 8601): its creation, or the enable.do that turned it back on'),
  })
  .describe('a webhook subscription as its owner sees it: never a secret');

const one = z.object({ success: z.literal(true), webhook: subscription, dryRun: dryRunMark });
const withSecret = one.extend({ secret: secret.optional() });
const NO_ACCESS_ERRORS = [400, 401, 404];

const createForm = z.object({
  url: z
    .string()
    .max(MAX_WEBHOOK_URL_LENGTH)
    .describe(
      'where events are POSTed: an https URL of a public host (a name, or a public address: none of the IANA ' +
        'special-purpose ranges, multicast or reserved, nor an IPv6 form carrying an IPv4 address such as ' +
        '`::ffff:0:7f00:1`, `2002::/16` or `64:ff9b::/96`), without a user name or password; at most ' +
        `${MAX_WEBHOOK_URL_LENGTH} characters as sent and as stored, which is percent-encoded (an emoji counts 12)`,
    ),
  events: z
    .array(eventKind)
    .min(1)
    .describe(`the event kinds to receive: ${WEBHOOK_EVENT_KINDS.join(', ')}`),
  ...Object.fromEntries(
    FILTER_PARAMETERS.map((name) => [
      name,
      idArray.optional().describe(`only events of these ${name.replace(/Ids$/, '')}s (and no filter: every entity)`),
    ]),
  ),
});

/** What the webhook operations take and answer (`OperationSpec` of `operation-specs.ts`, which spreads them in). */
export const WEBHOOK_SPECS = {
  'webhooks.create': () => ({
    form: createForm,
    response: withSecret,
    errors: [...NO_ACCESS_ERRORS, 403],
  }),
  'webhooks.list': () => ({
    response: z.object({
      success: z.literal(true),
      webhooks: z
        .array(subscription)
        .max(MAX_SUBSCRIPTIONS_PER_USER)
        .describe(`the caller's subscriptions, newest first (at most ${MAX_SUBSCRIPTIONS_PER_USER})`),
    }),
    errors: [401],
  }),
  'webhooks.update': () => ({ form: createForm, response: one, errors: [...NO_ACCESS_ERRORS, 403] }),
  'webhooks.delete': () => ({
    response: z.object({ success: z.literal(true), id: webhookId, dryRun: dryRunMark }),
    errors: NO_ACCESS_ERRORS,
  }),
  'webhooks.rotateSecret': () => ({
    response: withSecret.extend({
      previousSecretExpiresAt: z
        .string()
        .optional()
        .describe('until when the secret before this one still signs (ISO 8601): 24 hours from now'),
    }),
    errors: NO_ACCESS_ERRORS,
  }),
  'webhooks.enable': () => ({ response: one, errors: NO_ACCESS_ERRORS }),
} satisfies Record<Extract<Operation, `webhooks.${string}`>, () => unknown>;
