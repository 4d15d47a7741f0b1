import type { APIGatewayProxyResult } from 'aws-lambda';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { envelope } from './gateway-answers';

/** Where the server listens (`--host`, `HOST`): what else a request's `Host` may name follows from it. */
export interface BrowserGuardOptions {
  boundHost: string;
}

/** The `Sec-Fetch-Site` values of a request a page of this server made, or a person typed in the address bar. */
const OWN_FETCH_SITES: ReadonlySet<string> = new Set(['same-origin', 'none']);

const hostnameOf = (hostHeader: string): string | undefined => {
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return undefined;
  }
};

const isLoopbackName = (hostname: string): boolean =>
  hostname === 'localhost' ||
  hostname.endsWith('.localhost') ||
  hostname === '[::1]' ||
  (isIP(hostname) === 4 && hostname.startsWith('127.'));

const bare = (hostname: string): string => hostname.replace(/^\[|\]$/g, '');

/**
 * Whether `Host` names this server as only a client of this machine, or of the network the operator opened it to,
 * would: a loopback name or address always; once bound beyond loopback, any IP address and the bound name too. A
 * page that reached the server by DNS rebinding sends its own name, which is none of these.
 */
const isOwnHost = (hostHeader: string, { boundHost }: BrowserGuardOptions): boolean => {
  const hostname = hostnameOf(hostHeader);
  if (hostname === undefined) return false;
  if (isLoopbackName(hostname)) return true;
  const bound = hostnameOf(isIP(boundHost) === 6 ? `[${boundHost}]` : boundHost);
  if (bound === undefined || isLoopbackName(bound)) return false;
  return isIP(bare(hostname)) !== 0 || hostname === bound;
};

/** Whether a browser says a page of another origin (or another site) sent the request. */
const isFromAnotherPage = (headers: IncomingHttpHeaders): boolean => {
  const origin = headers.origin;
  const site = headers['sec-fetch-site'];
  if (site !== undefined && !OWN_FETCH_SITES.has(site)) return true;
  return origin !== undefined && origin.toLowerCase() !== `http://${headers.host ?? ''}`.toLowerCase();
};

/**
 * Why the local server refuses a request a web page may have sent behind the developer's back; undefined when it
 * takes it. Every path: a `Host` that is not this server's (DNS rebinding). `/_local/*` also: a request a page of
 * another origin sent (`Origin`, or `Sec-Fetch-Site` for what a browser sends without one). A tool that sends
 * neither header (curl, Node's fetch, the CLIs) is never refused.
 */
export const browserRefusal = (
  path: string,
  headers: IncomingHttpHeaders,
  options: BrowserGuardOptions,
): APIGatewayProxyResult | undefined => {
  if (headers.host !== undefined && !isOwnHost(headers.host, options))
    return envelope(
      403,
      'The local server answers only requests whose Host names this machine: localhost, a .localhost name or a ' +
        'loopback address (listening beyond loopback, any IP address or the --host name too), not ' +
        JSON.stringify(headers.host.slice(0, 100)),
      {},
      'REQUEST_REFUSED',
    );
  if (path.startsWith('/_local/') && isFromAnotherPage(headers))
    return envelope(
      403,
      "/_local/* answers tools and this server's own pages, not a page of another origin",
      {},
      'REQUEST_REFUSED',
    );
  return undefined;
};
