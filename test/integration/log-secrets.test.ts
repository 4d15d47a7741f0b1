import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashAuth, postForm, withQuery } from '../support/http';
import { logger } from '../../shared/logger';
import { useTestService } from '../support/local-service';

const ctx = useTestService();

describe('logs', () => {
  let written = '';
  beforeEach(() => {
    logger.setLogLevel('INFO');
    written = '';
    const capture = (chunk: unknown) => {
      written += String(chunk);
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    logger.setLogLevel('SILENT');
  });

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

    expect(written).toContain('password reset mail failed');
    for (const secret of secrets) expect(written).not.toContain(secret);
  });
});
