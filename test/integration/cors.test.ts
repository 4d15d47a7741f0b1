import { describe, expect, it } from 'vitest';
import { useTestService } from '../support/local-service';

const UI = 'https://ui.limits.test';
const ctx = useTestService({ corsOrigins: [UI, 'https://admin.limits.test'] });
const READ = '/rest-api/campaign/100/limits.do';

describe('CORS with corsOrigins set', () => {
  it('answers the preflight for an allowed origin', async () => {
    const response = await fetch(`${ctx.service.url}${READ}`, {
      method: 'OPTIONS',
      headers: { Origin: UI, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(UI);
    expect(response.headers.get('access-control-allow-methods')).toContain('GET');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
  });

  it("puts the headers on a handler's real answer and on its errors, for allowed origins only", async () => {
    const ok = await fetch(`${ctx.service.url}${READ}`, { headers: { Origin: UI, 'X-Api-Key': 'demo-key-0001' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(UI);
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    const refused = await fetch(`${ctx.service.url}/rest-api/campaign/102/limits.do`, {
      headers: { Origin: UI, 'X-Api-Key': 'viewer-key-0001' },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBe(UI);
    const stranger = await fetch(`${ctx.service.url}${READ}`, {
      headers: { Origin: 'https://evil.test', 'X-Api-Key': 'demo-key-0001' },
    });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
    expect(stranger.headers.get('vary')).toContain('Origin');
  });

  it('puts the headers on what the gateway itself answers (401 from the authorizer)', async () => {
    const response = await fetch(`${ctx.service.url}${READ}`, { headers: { Origin: UI } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(UI);
  });
});
