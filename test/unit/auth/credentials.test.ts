import { describe, expect, it } from 'vitest';
import { cookieValue, visibleCredentials } from '../../../shared/auth/credentials';

describe('credentials a request shows the authorizer', () => {
  it('prefers X-Api-Key, then query hash parameters, then the session cookie', () => {
    const query = { username: 'a', timestamp: '1', hash: 'h' };
    const cookie = { cookie: 'x=1; dl_session=abc' };
    expect(visibleCredentials({ 'X-API-KEY': 'k', ...cookie }, query)).toEqual({ kind: 'apiKey', key: 'k' });
    expect(visibleCredentials(cookie, query)).toEqual({ kind: 'hash', username: 'a', timestamp: '1', hash: 'h' });
    expect(visibleCredentials(cookie, { username: 'a', timestamp: '1' })).toEqual({
      kind: 'session',
      sessionId: 'abc',
    });
    expect(visibleCredentials({}, null)).toBeUndefined();
  });

  it('reads one cookie out of many', () => {
    expect(cookieValue('a=1;b=2; dl_session=xyz ; c=3', 'dl_session')).toBe('xyz');
    expect(cookieValue('dl_sessionx=1', 'dl_session')).toBeUndefined();
    expect(cookieValue(undefined, 'dl_session')).toBeUndefined();
  });
});
