import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WebhookSecret } from '../../../../shared/domain/webhooks/subscription';
import {
  MAX_SIGNING_SECRETS,
  newSecret,
  ROTATION_OVERLAP_MS,
  rotatedSecrets,
  signingSecrets,
} from '../../../../shared/domain/webhooks/webhook-secrets';

const HOUR = 60 * 60 * 1000;
const at = (ms: number) => new Date(Date.UTC(2026, 5, 10) + ms);

describe('webhook secrets', () => {
  it('are whsec_ and the base64 of 32 bytes, different each time', () => {
    const secret = newSecret(at(0), new Uint8Array(32).fill(255));
    expect(secret).toEqual({ value: `whsec_${'/'.repeat(42)}8=`, createdAt: '2026-06-10T00:00:00.000Z' });
    expect(Buffer.from(secret.value.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newSecret(at(0)).value).not.toEqual(newSecret(at(0)).value);
  });

  it('after a rotation, the old one signs for 24 hours beside the new one, then stops', () => {
    const old = newSecret(at(0));
    const fresh = newSecret(at(HOUR));
    const secrets = rotatedSecrets([old], fresh, at(HOUR));
    expect(secrets).toEqual([fresh, { ...old, expiresAt: at(HOUR + ROTATION_OVERLAP_MS).toISOString() }]);
    expect(signingSecrets(secrets, at(HOUR + ROTATION_OVERLAP_MS - 1))).toEqual(secrets);
    expect(signingSecrets(secrets, at(HOUR + ROTATION_OVERLAP_MS))).toEqual([fresh]);
  });

  it('rotations in a row: the newest always signs, none signs past its end, at most three (seed printed on failure)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 48 * HOUR }), { minLength: 1, maxLength: 8 }), (gaps) => {
        let now = 0;
        let secrets: WebhookSecret[] = [newSecret(at(now))];
        const ends = new Map<string, string>();
        for (const gap of gaps) {
          now += gap;
          const fresh = newSecret(at(now));
          secrets = rotatedSecrets(secrets, fresh, at(now));
          expect(secrets[0]).toEqual(fresh);
          expect(secrets.length).toBeLessThanOrEqual(MAX_SIGNING_SECRETS);
          for (const secret of secrets.slice(1)) {
            expect(Date.parse(secret.expiresAt!)).toBeGreaterThan(at(now).getTime());
            expect(Date.parse(secret.expiresAt!)).toBeLessThanOrEqual(at(now + ROTATION_OVERLAP_MS).getTime());
            // an end once set never moves later
            const earlier = ends.get(secret.value);
            if (earlier) expect(secret.expiresAt! <= earlier).toBe(true);
            ends.set(secret.value, secret.expiresAt!);
          }
        }
      }),
    );
  });
});
