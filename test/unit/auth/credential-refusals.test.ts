import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DENIED_CREDENTIAL_TEMPLATE,
  isTemplateSafe,
  renderGatewayTemplate,
} from '../../../shared/api/authorizer-refusal';
import {
  accountInactive,
  apiKeyInvalid,
  credentialsMissing,
  sessionExpired,
  signatureInvalid,
  timestampOutOfWindow,
} from '../../../shared/auth/credential-refusals';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
const NOW = new Date('2026-11-27T06:00:00.000Z');

describe('credential refusals', () => {
  it(`render through the gateway's template as the envelope, whatever the timestamp sent (seed ${SEED})`, () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.bigInt({ min: 0n, max: 10n ** 16n - 1n }).map(String)),
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        (timestamp, at) => {
          const now = new Date(at);
          for (const refusal of [
            timestampOutOfWindow(timestamp, now),
            credentialsMissing(now),
            signatureInvalid(now),
            apiKeyInvalid(now),
            sessionExpired(now),
            accountInactive(now),
          ]) {
            expect(refusal.statusCode).toBe(401);
            expect(isTemplateSafe(refusal.message)).toBe(true);
            const body = renderGatewayTemplate(DENIED_CREDENTIAL_TEMPLATE, {
              'authorizer.code': refusal.code!,
              'authorizer.message': refusal.message,
              requestTimeEpoch: at,
              requestId: 'r',
            });
            expect(JSON.parse(body)).toEqual({
              success: false,
              code: refusal.code,
              message: refusal.message,
              serverTime: at,
              requestId: 'r',
            });
          }
        },
      ),
      { seed: SEED },
    );
  });

  it("names a timestamp in seconds, the skew of one in milliseconds, and always the window and the server's time", () => {
    const inSeconds = timestampOutOfWindow(String(NOW.getTime() / 1000 - 30), NOW).message;
    expect(inSeconds).toMatch(/^The timestamp 1795759170 looks like seconds: send Unix time in milliseconds/);
    expect(timestampOutOfWindow(String(NOW.getTime() - 600_000), NOW).message).toMatch(/is 600 s behind the server/);
    expect(timestampOutOfWindow(String(NOW.getTime() + 301_000), NOW).message).toMatch(/is 301 s ahead of the/);
    expect(timestampOutOfWindow('2026-11-27', NOW).message).toMatch(/must be Unix time in milliseconds/);
    for (const timestamp of ['1', '2026-11-27', String(NOW.getTime() / 1000)])
      expect(timestampOutOfWindow(timestamp, NOW).message).toContain(
        "within 300 s of the server's time, 2026-11-27T06:00:00.000Z (1795759200000 ms)",
      );
  });
});
