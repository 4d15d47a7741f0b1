import type { Operation } from '../route-table';

type WebhookOperation = Extract<Operation, `webhooks.${string}`>;
/** A named example, as `examples.ts` declares them (its `ResponseExample`). */
interface ResponseExample {
  summary: string;
  value: unknown;
}

const one = (summary: string, value: unknown): Record<string, ResponseExample> => ({ example: { summary, value } });

const webhook = {
  id: 'wh_k3v7q2mz5x4c6b2n2p7r',
  url: 'https://partner.example/hooks/limits',
  events: ['limit.reached'],
  filters: { campaignIds: [100] },
  status: 'active',
  createdAt: '2026-06-10T12:00:00.000Z',
  activeSince: '2026-06-10T12:00:00.000Z',
};

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw2XbDrjG3Rnw=';

const disabled = {
  ...webhook,
  status: 'disabled',
  disabledReason: 'every delivery failed for 5 days (HTTP 503)',
  failureRun: { since: '2026-06-05T12:00:00.000Z', attempts: 48 },
};

/** Examples of the 200 answers of the webhook operations. */
export const webhookExamples = (): Record<WebhookOperation, Record<string, ResponseExample>> => ({
  'webhooks.create': {
    created: {
      summary: 'Created: the secret is in this answer only',
      value: { success: true, webhook, secret: SECRET },
    },
    dryRun: {
      summary: 'dryRun=true: checked, nothing created, no secret',
      value: { success: true, webhook, dryRun: true },
    },
  },
  'webhooks.list': one('One active, one switched off after a run of failures', {
    success: true,
    webhooks: [webhook, { ...disabled, id: 'wh_a2b3c4d5e6f7g2h3j4k5', filters: {} }],
  }),
  'webhooks.update': one('Moved to a new URL, same id and secret', {
    success: true,
    webhook: { ...webhook, url: 'https://partner.example/hooks/limits-v2' },
  }),
  'webhooks.delete': one('Deleted', { success: true, id: webhook.id }),
  'webhooks.rotateSecret': one('A new secret, shown once; the old one signs for 24 hours more', {
    success: true,
    webhook,
    secret: 'whsec_3q2+7wAAAAB0aGlzIGlzIGEgc2FtcGxlIHNlY3JldCE=',
    previousSecretExpiresAt: '2026-06-11T12:00:00.000Z',
  }),
  'webhooks.enable': one('On again, without its failure run, heard from now', {
    success: true,
    webhook: { ...webhook, activeSince: '2026-06-12T09:30:00.000Z' },
  }),
});

/** The form of create.do, by example. */
export const webhookRequestExamples = (operation: Operation): Record<string, ResponseExample> | undefined =>
  operation === 'webhooks.create' || operation === 'webhooks.update'
    ? {
        ...one('Cap crossings of campaign 100', {
          url: 'https://partner.example/hooks/limits',
          events: ['limit.reached'],
          campaignIds: [100],
        }),
        everything: {
          summary: 'Both kinds, for every entity the caller may read',
          value: { url: 'https://partner.example/hooks/limits', events: ['limit.reached', 'limit.changed'] },
        },
      }
    : undefined;
