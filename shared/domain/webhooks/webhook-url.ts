/** Where webhooks may go: https anywhere public; plain http to this machine only where the deployment allows it. */
export interface WebhookUrlPolicy {
  /** The local server sets it, so that a receiver on the developer's machine needs no certificate. */
  loopbackHttp: boolean;
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export type UrlCheck = { ok: true; value: string } | { ok: false; reason: string };

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** IPv4 literals no partner endpoint has: loopback, private, link-local (the cloud's metadata service), unspecified. */
const INTERNAL_IPV4 = /^(127|10|0)\.|^169\.254\.|^192\.168\.|^172\.(1[6-9]|2\d|3[01])\./;
/** IPv6 literals of the same kinds: loopback, unspecified, unique-local (fc00::/7), link-local (fe80::/10). */
const INTERNAL_IPV6 = /^\[(::1?|f[cd][0-9a-f]*:.*|fe[89ab][0-9a-f]*:.*|::ffff:.*)\]$/i;

const isInternalHost = (hostname: string): boolean =>
  LOOPBACK_HOSTS.has(hostname) ||
  hostname.endsWith('.localhost') ||
  INTERNAL_IPV4.test(hostname) ||
  INTERNAL_IPV6.test(hostname);

const parsed = (text: string): URL | undefined => {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
};

/**
 * A subscription's URL, as it will be called: https to a public host, with no credentials in it (they would be
 * shown in every listing). Plain http, and https to this machine, only to a loopback host under `loopbackHttp`.
 */
export const checkWebhookUrl = (text: string, policy: WebhookUrlPolicy): UrlCheck => {
  if (text.length > MAX_WEBHOOK_URL_LENGTH)
    return { ok: false, reason: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` };
  const url = parsed(text);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '')
    return { ok: false, reason: 'must be an absolute https URL' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'must not hold a user name or password' };
  const loopbackAllowed = policy.loopbackHttp && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol === 'http:' && !loopbackAllowed)
    return {
      ok: false,
      reason: policy.loopbackHttp
        ? 'must be https (plain http only to localhost, 127.0.0.1 or [::1])'
        : 'must be https',
    };
  if (isInternalHost(url.hostname) && !loopbackAllowed)
    return { ok: false, reason: 'must name a public host, not a loopback, private or link-local address' };
  return { ok: true, value: url.href };
};
