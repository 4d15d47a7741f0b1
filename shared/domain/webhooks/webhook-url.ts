import { isPublicAddress } from './public-address';

/** Where webhooks may go: https anywhere public; plain http to this machine only where the deployment allows it. */
export interface WebhookUrlPolicy {
  /** The local server sets it, so that a receiver on the developer's machine needs no certificate. */
  loopbackHttp: boolean;
}

/** The most characters a URL may have, as sent and as stored and called (`href`: percent-encoded, punycode). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
const TOO_LONG = `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters, as sent and once percent-encoded`;

export type UrlCheck = { ok: true; value: string } | { ok: false; reason: string };

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A host no partner endpoint has: a loopback name, or an address literal that is no public address. */
const isInternalHost = (hostname: string): boolean => {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  // the URL reader has already written an IPv4 literal in dotted decimal (`127.1`, `0x7f000001`: 127.0.0.1)
  const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const isAddress = hostname.startsWith('[') || /^[\d.]+$/.test(hostname);
  return isAddress && !isPublicAddress(literal);
};

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
  if (text.length > MAX_WEBHOOK_URL_LENGTH) return { ok: false, reason: TOO_LONG };
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
    return {
      ok: false,
      reason: 'must name a public host, not a loopback, private, link-local or other special-purpose address',
    };
  // stored and called as `href`: a character outside ASCII grows to as many as 12 (an emoji's %F0%9F%98%80)
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH) return { ok: false, reason: TOO_LONG };
  return { ok: true, value: url.href };
};
