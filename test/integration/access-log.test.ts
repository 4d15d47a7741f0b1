import { describe, expect, it, vi } from 'vitest';

// before any module of the service loads: the level is read once; info is what npm start runs with by default
vi.hoisted(() => {
  process.env.LOG_LEVEL = 'info';
});
import { captureOutput } from '../support/captured-output';
import { useTestService } from '../support/local-service';

const ctx = useTestService();

describe('the local access log at the default level', () => {
  const written = captureOutput();

  it('writes one short line per request, and no JSON access line', async () => {
    await fetch(`${ctx.service.url}/rest-api/campaign/100/limits.do`, { headers: { 'X-Api-Key': 'demo-key-0001' } });
    await fetch(`${ctx.service.url}/rest-api/campaign/100/limits/set.do`, { method: 'POST' });
    await fetch(`${ctx.service.url}/_local/health`);
    expect(written().split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^GET \/rest-api\/campaign\/100\/limits\.do 200 \d+\.\dms$/),
      expect.stringMatching(/^POST \/rest-api\/campaign\/100\/limits\/set\.do 401 \d+\.\dms$/),
      expect.stringMatching(/^GET \/_local\/health 200 \d+\.\dms$/),
    ]);
  });

  it('never shows a login token, nor the query string', async () => {
    const token = '0123456789abcdef0123456789abcdef';
    await fetch(`${ctx.service.url}/rest-api/auth/${token}/login.do?json=true`);
    await fetch(`${ctx.service.url}/rest-api/auth/${token}/logn.do`);
    await fetch(`${ctx.service.url}/rest-api/campaign/100/limits.do?username=demo&timestamp=1&hash=${token}`);
    expect(written().split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^GET \/rest-api\/auth\/\{authToken\}\/login\.do 404 /),
      expect.stringMatching(/^GET \/rest-api\/auth\/… 404 /),
      expect.stringMatching(/^GET \/rest-api\/campaign\/100\/limits\.do 401 /),
    ]);
    expect(written()).not.toContain(token);
  });
});
