import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signingSecrets, webhookHeaders, webhookSignature } from '../../../../shared/domain/webhooks/webhook-signature';

describe('Standard Webhooks signature', () => {
  it('matches the published test vector of the Standard Webhooks reference library', () => {
    // standard-webhooks/standard-webhooks, libraries/javascript/src/webhook.test.ts, "sign function works"
    expect(
      webhookSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', {
        id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        timestamp: 1614265330,
        body: '{"test": 2432232314}',
      }),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs with every secret still in force, newest first, and seconds as the timestamp', () => {
    const now = new Date('2026-11-27T10:00:00.900Z');
    const secrets = [
      { value: 'whsec_' + Buffer.from('new key').toString('base64'), createdAt: '2026-11-27T09:00:00Z' },
      {
        value: 'whsec_' + Buffer.from('old key').toString('base64'),
        createdAt: '2026-11-01T00:00:00Z',
        expiresAt: '2026-11-28T00:00:00Z',
      },
      {
        value: 'whsec_' + Buffer.from('gone key').toString('base64'),
        createdAt: '2026-10-01T00:00:00Z',
        expiresAt: '2026-11-02T00:00:00Z',
      },
    ];
    const headers = webhookHeaders({ id: 'CAMPAIGN#1/x', body: '{"a":1}' }, secrets, now);
    const expected = (key: string) =>
      `v1,${createHmac('sha256', key).update('CAMPAIGN#1/x.1795773600.{"a":1}').digest('base64')}`;
    expect(headers).toEqual({
      'webhook-id': 'CAMPAIGN#1/x',
      'webhook-timestamp': '1795773600',
      'webhook-signature': `${expected('new key')} ${expected('old key')}`,
    });
  });

  it('keeps the newest secret even when it carries an expiry already past', () => {
    const secrets = [{ value: 'whsec_AAAA', createdAt: '2026-01-01T00:00:00Z', expiresAt: '2026-01-02T00:00:00Z' }];
    expect(signingSecrets(secrets, new Date('2026-11-27T00:00:00Z'))).toEqual(secrets);
  });
});
