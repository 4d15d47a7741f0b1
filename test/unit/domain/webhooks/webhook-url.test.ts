import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, MAX_WEBHOOK_URL_LENGTH } from '../../../../shared/domain/webhooks/webhook-url';

const onAws = { loopbackHttp: false };
const local = { loopbackHttp: true };

describe('checkWebhookUrl', () => {
  it('accepts https to a public host, as the URL will be called', () => {
    expect(checkWebhookUrl('https://Partner.example:8443/hooks?x=1', onAws)).toEqual({
      ok: true,
      value: 'https://partner.example:8443/hooks?x=1',
    });
  });

  it.each([
    ['', 'must be an absolute https URL'],
    ['/relative/path', 'must be an absolute https URL'],
    ['ftp://partner.example/', 'must be an absolute https URL'],
    ['mailto:ops@partner.example', 'must be an absolute https URL'],
    ['http://partner.example/', 'must be https'],
    ['https://user:secret@partner.example/', 'must not hold a user name or password'],
  ])('refuses %j on AWS: %s', (url, reason) => {
    expect(checkWebhookUrl(url, onAws)).toEqual({ ok: false, reason });
  });

  it.each([
    'https://localhost/',
    'https://api.localhost/',
    'https://127.0.0.1/',
    'https://127.1/',
    'https://0x7f000001/',
    'https://10.1.2.3/',
    'https://172.16.0.1/',
    'https://172.31.255.255/',
    'https://192.168.0.1/',
    'https://169.254.169.254/latest/meta-data/',
    'https://0.0.0.0/',
    'https://[::1]/',
    'https://[::]/',
    'https://[fd00::1]/',
    'https://[fe80::1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://100.64.0.1/',
    'https://224.0.0.1/',
    'https://240.0.0.1/',
    'https://255.255.255.255/',
    'https://[::127.0.0.1]/',
    'https://[::ffff:0:7f00:1]/',
    'https://[2002:7f00:1::1]/',
    'https://[64:ff9b::127.0.0.1]/',
    'https://[64:ff9b:1::a00:1]/',
    'https://[2001:db8::1]/',
  ])('refuses %s, an address no partner endpoint has, wherever it runs', (url) => {
    expect(checkWebhookUrl(url, onAws)).toEqual({
      ok: false,
      reason: 'must name a public host, not a loopback, private, link-local or other special-purpose address',
    });
    // locally, only the loopback host names the URL reader normalises to pass
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);
    expect(checkWebhookUrl(url, local).ok).toBe(loopback);
  });

  it.each(['https://172.15.0.1/', 'https://172.32.0.1/', 'https://11.0.0.1/', 'https://[2606:2800:220:1::1]/'])(
    'accepts %s, a public address',
    (url) => {
      expect(checkWebhookUrl(url, onAws).ok).toBe(true);
    },
  );

  it('accepts plain http and https to this machine only where the deployment allows it', () => {
    for (const url of ['http://localhost:4000/hook', 'http://127.0.0.1:4000/hook', 'http://[::1]:4000/hook']) {
      expect(checkWebhookUrl(url, local)).toEqual({ ok: true, value: url });
      expect(checkWebhookUrl(url, onAws).ok).toBe(false);
    }
    expect(checkWebhookUrl('https://127.0.0.1:4000/', local).ok).toBe(true);
    expect(checkWebhookUrl('http://partner.example/', local)).toEqual({
      ok: false,
      reason: 'must be https (plain http only to localhost, 127.0.0.1 or [::1])',
    });
  });

  const tooLong = {
    ok: false,
    reason: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters, as sent and once percent-encoded`,
  };

  it(`refuses a URL over ${MAX_WEBHOOK_URL_LENGTH} characters`, () => {
    const base = 'https://partner.example/';
    expect(checkWebhookUrl(base + 'a'.repeat(MAX_WEBHOOK_URL_LENGTH - base.length), onAws).ok).toBe(true);
    expect(checkWebhookUrl(base + 'a'.repeat(MAX_WEBHOOK_URL_LENGTH - base.length + 1), onAws)).toEqual(tooLong);
  });

  it(`holds the URL as stored and called to ${MAX_WEBHOOK_URL_LENGTH} characters, not only as sent`, () => {
    const base = 'https://partner.example/';
    // each emoji is 2 UTF-16 units as sent and 12 characters percent-encoded (%F0%9F%98%80)
    const fits = base + '😀'.repeat(Math.floor((MAX_WEBHOOK_URL_LENGTH - base.length) / 12));
    expect(checkWebhookUrl(fits, onAws)).toMatchObject({ ok: true });
    const grows = `${fits}😀`;
    expect(grows.length).toBeLessThanOrEqual(MAX_WEBHOOK_URL_LENGTH);
    expect(checkWebhookUrl(grows, onAws)).toEqual(tooLong);
    // at the limit as typed, six times over it once encoded
    const asTyped = base + '😀'.repeat((MAX_WEBHOOK_URL_LENGTH - base.length) / 2);
    expect(asTyped.length).toBe(MAX_WEBHOOK_URL_LENGTH);
    expect(checkWebhookUrl(asTyped, onAws)).toEqual(tooLong);
  });
});
