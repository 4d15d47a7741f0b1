import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/api/route-table';
import { useTestService } from '../support/local-service';

const ctx = useTestService();

const concretePath = (template: string): string =>
  template
    .replace('{authToken}', '0123456789abcdef0123456789abcdef')
    .replace('{type}', 'CAMPAIGN')
    .replace(/\{[A-Za-z]+Id\}/g, '100');

describe('local API Gateway', () => {
  it('answers /_local/health', async () => {
    const response = await fetch(`${ctx.service.url}/_local/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const response = await fetch(`${ctx.service.url}/rest-api/nothing/here.do`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toMatchObject({
      success: false,
      message: expect.stringContaining('/rest-api/nothing/here.do'),
    });
  });

  it('answers a wrong method on a known path with 405 and Allow', async () => {
    const response = await fetch(`${ctx.service.url}/rest-api/auth/token.do`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toMatchObject({ success: false });
  });

  it('answers a body over 1 MiB with 413', async () => {
    const response = await fetch(`${ctx.service.url}/rest-api/campaign/100/limits/set.do`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `a=${'x'.repeat(1024 * 1024)}`,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ success: false });
  });

  it('answers a malformed form body with 400', async () => {
    const response = await fetch(`${ctx.service.url}/rest-api/campaign/100/limits/set.do`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'dailyImpressionsLimit=%GG',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, errors: { body: expect.any(String) } });
  });

  it('answers a local endpoint that does not exist with 404 and a wrong method with 405', async () => {
    expect((await fetch(`${ctx.service.url}/_local/nothing`)).status).toBe(404);
    expect((await fetch(`${ctx.service.url}/_local/health`, { method: 'DELETE' })).status).toBe(405);
  });

  it.each(ROUTES.map((route) => [route.method, route.path] as const))(
    'routes %s %s to its built operation',
    async (method, path) => {
      const response = await fetch(`${ctx.service.url}${concretePath(path)}`, {
        method,
        redirect: 'manual',
        headers: { 'X-Api-Key': 'demo-key-0001' },
      });
      expect(response.status).not.toBe(405);
      expect(response.status).not.toBe(401);
      const text = await response.text();
      // every operation is built and answers for itself: never the router's 404, never a 5xx (501 included)
      expect(text).not.toContain('No route for');
      expect(response.status).toBeLessThan(500);
    },
  );
});

describe('local clock', () => {
  it('is fixed, moved and released through /_local/clock', async () => {
    const post = (body: unknown) =>
      fetch(`${ctx.service.url}/_local/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect(await (await post({ now: '2026-11-22T10:00:00Z' })).json()).toEqual({ now: '2026-11-22T10:00:00.000Z' });
    expect(await (await post({ advanceSeconds: 61 })).json()).toEqual({ now: '2026-11-22T10:01:01.000Z' });
    expect(await (await fetch(`${ctx.service.url}/_local/clock`)).json()).toEqual({ now: '2026-11-22T10:01:01.000Z' });
    expect(ctx.service.clock.now().toISOString()).toBe('2026-11-22T10:01:01.000Z');
    expect((await post({ now: 'yesterday' })).status).toBe(400);
    expect((await post({ advanceSeconds: 'x' })).status).toBe(400);
    expect((await post({})).status).toBe(400);
    const released = (await (await post({ now: null })).json()) as { now: string };
    expect(Math.abs(Date.parse(released.now) - Date.now())).toBeLessThan(5000);
  });
});
