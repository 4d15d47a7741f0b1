import { describe, expect, it } from 'vitest';
import { rawRequest } from '../support/raw-http';
import { useTestService } from '../support/local-service';

const ctx = useTestService();
const hostOf = () => new URL(ctx.service.url).host;

const clockNow = async () => ((await (await fetch(`${ctx.service.url}/_local/clock`)).json()) as { now: string }).now;

const refusal = { success: false, code: 'REQUEST_REFUSED' };

describe('a web page cannot drive the local server', () => {
  it('refuses a page of another origin on /_local/*: the clock is not moved', async () => {
    await fetch(`${ctx.service.url}/_local/clock`, { method: 'POST', body: '{"now":"2026-11-22T10:00:00Z"}' });
    const answer = await rawRequest(
      ctx.service.url,
      'POST',
      '/_local/clock',
      { 'content-type': 'text/plain', origin: 'https://evil.example' },
      '{"advanceSeconds":86400}',
    );
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject(refusal);
    expect(await clockNow()).toBe('2026-11-22T10:00:00.000Z');
    // what a browser sends without an Origin (an image, a script tag) names the site it came from
    const tag = await rawRequest(ctx.service.url, 'GET', '/_local/outbox', { 'sec-fetch-site': 'cross-site' });
    expect(tag.status).toBe(403);
  });

  it('refuses a Host that is not a loopback name or address (DNS rebinding), on every path', async () => {
    const evil = { host: `evil.example:${ctx.service.port}` };
    for (const path of ['/_local/outbox', '/rest-api/campaign/100/limits.do', '/docs']) {
      const answer = await rawRequest(ctx.service.url, 'GET', path, { ...evil, 'x-api-key': 'demo-key-0001' });
      expect(answer.status, path).toBe(403);
      expect(JSON.parse(answer.body), path).toMatchObject(refusal);
    }
  });

  it("answers tools with no Origin, Node's fetch, the server's own origin and the loopback names as before", async () => {
    expect((await fetch(`${ctx.service.url}/_local/outbox`)).status).toBe(200);
    for (const headers of [
      {},
      { origin: `http://${hostOf()}` },
      { host: `localhost:${ctx.service.port}`, origin: `http://localhost:${ctx.service.port}` },
      { host: `[::1]:${ctx.service.port}`, 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
    ] as Record<string, string>[]) {
      const answer = await rawRequest(
        ctx.service.url,
        'POST',
        '/_local/clock',
        { 'content-type': 'text/plain', ...headers },
        '{"now":null}',
      );
      expect(answer.status, JSON.stringify(headers)).toBe(200);
    }
    const api = await rawRequest(ctx.service.url, 'GET', '/rest-api/campaign/100/limits.do', {
      'x-api-key': 'demo-key-0001',
      origin: 'https://ui.partner.example',
    });
    expect(api.status).toBe(200);
  });
});
