import { lookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { WebhookAttemptResult, WebhookEndpoint } from '../../ports/webhook-deliveries';
import { isPublicAddress } from '../../domain/webhooks/public-address';

export interface EndpointOptions {
  /** The local server's: plain HTTP and any address on the machine. Never on AWS. */
  anyUrl: boolean;
  timeoutMs: number;
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * DNS resolution that refuses a host resolving to an address no webhook may reach, by the judgement create.do made
 * of the URL (`isPublicAddress`). The check is made on the very addresses the connection then uses, so a name that
 * resolves differently a second time (DNS rebinding) gains nothing.
 */
const checkedLookup = (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) =>
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((address) => !isPublicAddress(address.address));
    if (refused || addresses.length === 0)
      return callback(new Error(`${hostname} resolves to an address webhooks may not reach`), []);
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });

/** Why a URL may not be called at all, before any connection; undefined when it may. */
const refusal = (url: URL, anyUrl: boolean): string | undefined => {
  if (url.protocol !== 'https:' && !(anyUrl && url.protocol === 'http:')) return 'only https URLs are called';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!anyUrl && isIP(host) !== 0 && !isPublicAddress(host)) return 'the address is one webhooks may not reach';
  return undefined;
};

/** POSTs a signed delivery: 2xx is success; anything else, a redirect included (never followed), is a failure. */
export class HttpsWebhookEndpoint implements WebhookEndpoint {
  constructor(private readonly options: EndpointOptions) {}

  post({ url, headers, body }: { url: string; headers: Record<string, string>; body: string }) {
    const target = new URL(url);
    const refused = refusal(target, this.options.anyUrl);
    if (refused) return Promise.resolve<WebhookAttemptResult>({ ok: false, reason: refused });
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<WebhookAttemptResult>((resolve) => {
      const request = send(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          signal: AbortSignal.timeout(this.options.timeoutMs),
          ...(this.options.anyUrl ? {} : { lookup: checkedLookup }),
        },
        (response) => {
          response.resume();
          const status = response.statusCode ?? 0;
          resolve(
            status >= 200 && status < 300 ? { ok: true, status } : { ok: false, status, reason: `HTTP ${status}` },
          );
        },
      );
      request.on('error', (error) =>
        resolve({ ok: false, reason: error.name === 'AbortError' ? 'timed out' : error.message }),
      );
      request.end(body);
    });
  }
}
