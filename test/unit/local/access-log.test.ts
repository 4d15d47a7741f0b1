import { describe, expect, it } from 'vitest';
import { accessLogStyle, conciseLine } from '../../../infra/local/access-log';

describe('the local access log', () => {
  it('is JSON at debug, a short line at info or by default, and nothing above', () => {
    expect(accessLogStyle('debug')).toBe('json');
    expect(accessLogStyle('DEBUG')).toBe('json');
    expect(accessLogStyle(undefined)).toBe('line');
    expect(accessLogStyle('info')).toBe('line');
    expect(accessLogStyle('warn')).toBe('none');
    expect(accessLogStyle('error')).toBe('none');
    expect(accessLogStyle('silent')).toBe('none');
  });

  it('shows method, path, status and time, the template where a credential travels in the path', () => {
    const entry = { method: 'GET', status: 200, durationMs: 4.24, requestId: 'r' };
    expect(conciseLine({ ...entry, path: '/rest-api/campaign/100/limits.do', route: '/rest-api/{level}/{id}' })).toBe(
      'GET /rest-api/campaign/100/limits.do 200 4.2ms',
    );
    expect(
      conciseLine({ ...entry, path: '/rest-api/auth/abc/login.do', route: '/rest-api/auth/{authToken}/login.do' }),
    ).toBe('GET /rest-api/auth/{authToken}/login.do 200 4.2ms');
    expect(conciseLine({ ...entry, path: '/rest-api/auth/abc/x', status: 404 })).toBe('GET /rest-api/auth/… 404 4.2ms');
    expect(conciseLine({ ...entry, path: '/nowhere', status: 404 })).toBe('GET /nowhere 404 4.2ms');
  });
});
