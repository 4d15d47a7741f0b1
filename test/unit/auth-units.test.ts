import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cookieValue, visibleCredentials } from '../../shared/auth/credentials';
import { expectedHash, isHashValid, isTimestampFresh } from '../../shared/domain/auth/hash-scheme';
import { isValidCallback, jsonpBody, scriptSafeJson } from '../../shared/http/jsonp';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

describe('Epom hash scheme', () => {
  it('is md5 hex of md5 hex of the password followed by the decimal millisecond timestamp', () => {
    const timestamp = '1795000000000';
    // what Epom's PHP examples compute: md5(md5($password) . $timestamp)
    const client = md5(md5('alice-password') + timestamp);
    expect(expectedHash(md5('alice-password'), timestamp)).toBe(client);
    expect(isHashValid(md5('alice-password'), timestamp, client)).toBe(true);
    expect(isHashValid(md5('alice-password'), timestamp, client.toUpperCase())).toBe(true);
    expect(isHashValid(md5('alice-password'), '1795000000001', client)).toBe(false);
  });

  it('accepts timestamps within five minutes either way', () => {
    const now = new Date(1_795_000_000_000);
    expect(isTimestampFresh(String(now.getTime() - 300_000), now)).toBe(true);
    expect(isTimestampFresh(String(now.getTime() + 300_000), now)).toBe(true);
    expect(isTimestampFresh(String(now.getTime() - 300_001), now)).toBe(false);
    expect(isTimestampFresh(String(now.getTime() + 300_001), now)).toBe(false);
    expect(isTimestampFresh('1.795e12', now)).toBe(false);
    expect(isTimestampFresh('-1', now)).toBe(false);
  });
});

describe('credentials a request shows the authorizer', () => {
  it('prefers X-Api-Key, then query hash parameters, then the session cookie', () => {
    const query = { username: 'a', timestamp: '1', hash: 'h' };
    const cookie = { cookie: 'x=1; dl_session=abc' };
    expect(visibleCredentials({ 'X-API-KEY': 'k', ...cookie }, query)).toEqual({ kind: 'apiKey', key: 'k' });
    expect(visibleCredentials(cookie, query)).toEqual({ kind: 'hash', username: 'a', timestamp: '1', hash: 'h' });
    expect(visibleCredentials(cookie, { username: 'a', timestamp: '1' })).toEqual({ kind: 'session', sessionId: 'abc' });
    expect(visibleCredentials({}, null)).toBeUndefined();
  });

  it('reads one cookie out of many', () => {
    expect(cookieValue('a=1;b=2; dl_session=xyz ; c=3', 'dl_session')).toBe('xyz');
    expect(cookieValue('dl_sessionx=1', 'dl_session')).toBeUndefined();
    expect(cookieValue(undefined, 'dl_session')).toBeUndefined();
  });
});

describe('JSONP', () => {
  it('accepts only plain identifier paths of at most 64 characters', () => {
    for (const good of ['cb', 'app.login.done', '$', '_x1', 'a'.repeat(64)]) expect(isValidCallback(good), good).toBe(true);
    for (const bad of ['alert(1)', 'a..b', '1cb', 'a.', 'a[0]', 'a b', '', 'a'.repeat(65), 'cb;evil', 'a.1b'])
      expect(isValidCallback(bad), bad).toBe(false);
  });

  it('escapes what could end a script or break a JavaScript string', () => {
    const text = scriptSafeJson({ error: '</script><b>&\u2028\u2029' });
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual({ error: '</script><b>&\u2028\u2029' });
  });

  it('wraps the value in a call that evaluates to it', () => {
    let received: unknown;
    new Function('cb', jsonpBody('cb', { success: false, error: 'x</script>' }))((value: unknown) => (received = value));
    expect(received).toEqual({ success: false, error: 'x</script>' });
  });
});
