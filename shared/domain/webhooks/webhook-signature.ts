import { createHmac } from 'node:crypto';
import type { WebhookSecret } from './subscription';

const SECRET_PREFIX = 'whsec_';

/** A secret signs while it has not expired; the newest always does. */
export const signingSecrets = (secrets: readonly WebhookSecret[], now: Date): WebhookSecret[] =>
  secrets.filter(
    (secret, index) => index === 0 || secret.expiresAt === undefined || Date.parse(secret.expiresAt) > now.getTime(),
  );

/** One Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`, keyed by the decoded secret. */
export const webhookSignature = (secret: string, message: { id: string; timestamp: number; body: string }): string => {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const digest = createHmac('sha256', key)
    .update(`${message.id}.${message.timestamp}.${message.body}`)
    .digest('base64');
  return `v1,${digest}`;
};

/** The three Standard Webhooks headers of one attempt, signed with every secret still in force (space-separated). */
export const webhookHeaders = (
  message: { id: string; body: string },
  secrets: readonly WebhookSecret[],
  now: Date,
): Record<string, string> => {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signingSecrets(secrets, now)
      .map((secret) => webhookSignature(secret.value, { id: message.id, timestamp, body: message.body }))
      .join(' '),
  };
};
