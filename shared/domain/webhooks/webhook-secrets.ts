import { randomBytes } from 'node:crypto';
import type { WebhookSecret } from './subscription';

/** Standard Webhooks' secret shape: `whsec_` and the base64 of the key's bytes. */
export const SECRET_PREFIX = 'whsec_';
export const SECRET_BYTES = 32;
/** After a rotation the old secret signs beside the new one this long, so receivers can switch without a gap. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Rotations in quick succession keep the newest secrets only, so a subscription stays one small item. */
export const MAX_SIGNING_SECRETS = 3;

export const newSecret = (now: Date, bytes: Uint8Array = randomBytes(SECRET_BYTES)): WebhookSecret => ({
  value: `${SECRET_PREFIX}${Buffer.from(bytes).toString('base64')}`,
  createdAt: now.toISOString(),
});

/** The secrets that sign at `now`, newest first: every one not yet expired. */
export const signingSecrets = (secrets: readonly WebhookSecret[], now: Date): WebhookSecret[] =>
  secrets.filter((secret) => secret.expiresAt === undefined || Date.parse(secret.expiresAt) > now.getTime());

/**
 * The secrets after a rotation: the fresh one first, then those still signing, none for longer than the overlap
 * from now (a secret rotated out earlier keeps its earlier end), and at most `MAX_SIGNING_SECRETS` in all.
 */
export const rotatedSecrets = (secrets: readonly WebhookSecret[], fresh: WebhookSecret, now: Date): WebhookSecret[] => {
  const overlapEnd = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
  return [
    fresh,
    ...signingSecrets(secrets, now).map((secret) => ({
      ...secret,
      expiresAt: secret.expiresAt !== undefined && secret.expiresAt < overlapEnd ? secret.expiresAt : overlapEnd,
    })),
  ].slice(0, MAX_SIGNING_SECRETS);
};
