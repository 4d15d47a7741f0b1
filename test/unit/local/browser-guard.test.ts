import { describe, expect, it } from 'vitest';
import { browserRefusal } from '../../../infra/local/browser-guard';

const loopback = { boundHost: '127.0.0.1' };
const refusedBy = (path: string, headers: Record<string, string>, options = loopback) =>
  browserRefusal(path, headers, options)?.statusCode;

describe('the local server, bound to loopback (the default)', () => {
  it.each(['localhost:3000', 'LOCALHOST:3000', 'app.localhost:3000', '127.0.0.1:3000', '127.1.2.3:3000', '[::1]:3000'])(
    'takes Host %s, a loopback name or address',
    (host) => {
      expect(refusedBy('/_local/clock', { host })).toBeUndefined();
      expect(refusedBy('/rest-api/campaign/100/limits.do', { host })).toBeUndefined();
    },
  );

  it.each(['evil.example:3000', 'localhost.evil.example', '192.168.1.5:3000', '[::ffff:127.0.0.1]:3000', 'a b'])(
    'refuses Host %s on every path',
    (host) => {
      for (const path of ['/_local/outbox', '/rest-api/campaign/100/limits.do', '/docs'])
        expect(refusedBy(path, { host }), path).toBe(403);
    },
  );

  it('takes a request with no Host, as an HTTP/1.0 tool sends it', () => {
    expect(refusedBy('/_local/outbox', {})).toBeUndefined();
  });
});

describe('the local server, bound beyond loopback (--host)', () => {
  it('takes any IP address and the bound name besides the loopback ones, never another name', () => {
    for (const boundHost of ['0.0.0.0', '::', '192.168.1.5']) {
      for (const host of ['192.168.1.5:3000', '10.0.0.7:3000', '[fd00::1]:3000', 'localhost:3000', '0.0.0.0:3000'])
        expect(refusedBy('/_local/outbox', { host }, { boundHost }), `${boundHost} ${host}`).toBeUndefined();
      expect(refusedBy('/_local/outbox', { host: 'evil.example:3000' }, { boundHost }), boundHost).toBe(403);
    }
    expect(refusedBy('/_local/outbox', { host: 'devbox.lan:3000' }, { boundHost: 'devbox.lan' })).toBeUndefined();
    expect(refusedBy('/_local/outbox', { host: 'other.lan:3000' }, { boundHost: 'devbox.lan' })).toBe(403);
  });
});

describe('a page of another origin', () => {
  const host = '127.0.0.1:3000';

  it.each([
    { origin: 'https://evil.example' },
    { origin: 'null' },
    { origin: 'http://localhost:3000' },
    { origin: 'http://127.0.0.1:5173' },
    { 'sec-fetch-site': 'cross-site' },
    { 'sec-fetch-site': 'same-site' },
  ] as Record<string, string>[])('is refused on /_local/*: %o', (headers) => {
    expect(refusedBy('/_local/clock', { host, ...headers })).toBe(403);
  });

  it('is left to CORS on the API routes, as API Gateway leaves it', () => {
    expect(refusedBy('/rest-api/campaign/100/limits.do', { host, origin: 'https://evil.example' })).toBeUndefined();
  });

  it("takes this server's own pages, a person at the address bar, and tools that send no Origin", () => {
    for (const headers of [
      { origin: 'http://127.0.0.1:3000' },
      { origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
      { 'sec-fetch-mode': 'cors' },
      {},
    ] as Record<string, string>[])
      expect(refusedBy('/_local/clock', { host, ...headers }), JSON.stringify(headers)).toBeUndefined();
    expect(refusedBy('/_local/clock', { host: 'localhost:3000', origin: 'http://localhost:3000' })).toBeUndefined();
  });
});
