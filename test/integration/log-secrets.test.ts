import { describe, expect, it, vi } from 'vitest';

// before any module of the service loads: its logger takes its level once, as in Lambda; debug writes every line
vi.hoisted(() => {
  process.env.LOG_LEVEL = 'debug';
});
import { captureOutput } from '../support/captured-output';
import { hashAuth, postForm, withQuery } from '../support/http';
import { useTestService } from '../support/local-service';

const ctx = useTestService();

describe('logs', () => {
  const written = captureOutput();

  it('never carry passwords, tokens, hashes, API keys or session ids, even when something fails', async () => {
    const base = ctx.service.url;
    const secrets: string[] = ['demo-password', 'demo-key-0001', 'wrong-password-123'];
    const token = (await (
      await postForm(`${base}/rest-api/auth/token.do`, { username: 'demo', password: 'demo-password' })
    ).json()) as {
      authToken: string;
    };
    secrets.push(token.authToken);
    const login = await fetch(`${base}/rest-api/auth/${token.authToken}/login.do?json=true`);
    const session = /dl_session=([0-9a-f]+)/.exec(login.headers.get('set-cookie') ?? '')![1]!;
    secrets.push(session);
    await postForm(`${base}/rest-api/auth/token.do`, { username: 'demo', password: 'wrong-password-123' });
    const hash = hashAuth('demo', 'demo-password', ctx.service.clock.now().getTime());
    secrets.push(hash.hash!);
    await fetch(withQuery(`${base}/rest-api/campaign/100/limits.do`, hash));
    await fetch(withQuery(`${base}/rest-api/campaign/100/limits.do`, hash));
    await fetch(`${base}/rest-api/campaign/100/limits.do`, { headers: { 'X-Api-Key': 'demo-key-0001' } });
    await fetch(`${base}/rest-api/campaign/100/limits.do`, { headers: { cookie: `dl_session=${session}` } });

    const mailer = ctx.service.dependencies.mailer;
    ctx.service.dependencies.mailer = { send: async () => Promise.reject(new Error('mail service unavailable')) };
    try {
      expect((await postForm(`${base}/rest-api/auth/forgot.do`, { email: 'demo@example.com' })).status).toBe(200);
    } finally {
      ctx.service.dependencies.mailer = mailer;
    }

    expect(written()).toContain('password reset mail failed');
    for (const secret of secrets) expect(written()).not.toContain(secret);
  });

  it('writes one JSON access line per request at debug, with the route template and never a credential', async () => {
    const read = await fetch(`${ctx.service.url}/rest-api/campaign/100/limits.do`, {
      headers: { 'X-Api-Key': 'demo-key-0001' },
    });
    await fetch(`${ctx.service.url}/rest-api/auth/0123456789abcdef0123456789abcdef/login.do`);
    const lines = written()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.message === 'request');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 'DEBUG',
      method: 'GET',
      route: '/rest-api/campaign/{campaignId}/limits.do',
      status: 200,
      durationMs: expect.any(Number),
      principalId: expect.any(String),
      requestId: read.headers.get('x-request-id'),
    });
    expect(lines[1]).toMatchObject({ route: '/rest-api/auth/{authToken}/login.do', status: 404 });
    expect(written()).not.toContain('demo-key-0001');
    expect(written()).not.toContain('0123456789abcdef0123456789abcdef');
  });
});
