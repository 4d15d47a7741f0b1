import { describe, expect, it } from 'vitest';
import { isWebhookId, newWebhookId } from '../../../../shared/domain/webhooks/webhook-id';

describe('webhook ids', () => {
  it('are wh_ and 20 base32 characters, and only those are ids', () => {
    expect(newWebhookId(new Uint8Array(20).map((_, index) => index))).toBe('wh_abcdefghijklmnopqrst');
    expect(newWebhookId(new Uint8Array(20).fill(31))).toBe('wh_77777777777777777777');
    expect(isWebhookId(newWebhookId())).toBe(true);
    for (const text of [undefined, '', 'wh_', 'wh_abc', 'wh_ABCDEFGHIJKLMNOPQRST', 'wh_0000000000000000000a', '12'])
      expect(isWebhookId(text)).toBe(false);
  });
});
