import { describe, expect, it } from 'vitest';
import { FORGOT_RESPONSE_FLOOR_MS } from '../../functions/auth/password-reset';
import { bodyWithoutRequestId, hashAuth, postForm, setClock } from '../support/http';
import { scanTable, useTestService } from '../support/local-service';

const ctx = useTestService();
const url = (path: string) => `${ctx.service.url}/rest-api/auth${path}`;
const LIMIT_READ = '/rest-api/campaign/100/limits.do';

const issueToken = async (username = 'demo', password = 'demo-password') => {
  const response = await postForm(url('/token.do'), { username, password });
  expect(response.status).toBe(200);
  return ((await response.json()) as { authToken: string }).authToken;
};

const outbox = async () =>
  (await (await fetch(`${ctx.service.url}/_local/outbox`)).json()) as { to: string; text: string }[];

const durationOf = async <T>(run: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
};

describe('POST /rest-api/auth/token.do', () => {
  it('issues a 32-hex one-time token with the role', async () => {
    const response = await postForm(url('/token.do'), { username: 'demo', password: 'demo-password' });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({ success: true, authToken: expect.stringMatching(/^[0-9a-f]{32}$/), role: 'NETWORK' });
  });

  it('gives one answer for a wrong password, an unknown user and an inactive user, and writes nothing', async () => {
    const before = await scanTable(ctx.service);
    const answers = await Promise.all(
      [
        { username: 'demo', password: 'wrong-password' },
        { username: 'nobody', password: 'demo-password' },
        { username: 'former', password: 'former-password' },
      ].map(async (fields) => {
        const response = await postForm(url('/token.do'), fields);
        return { status: response.status, body: bodyWithoutRequestId(await response.text()) };
      }),
    );
    expect(answers[0]!.status).toBe(401);
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]!.body).toMatchObject({ success: false, error: expect.any(String) });
    expect(await scanTable(ctx.service)).toEqual(before);
  });

  it('answers 400 naming a missing or over-long parameter', async () => {
    const missing = await postForm(url('/token.do'), { username: 'demo' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ success: false, errors: { password: expect.any(String) } });
    const long = await postForm(url('/token.do'), { username: 'x'.repeat(257), password: 'p' });
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ errors: { username: expect.stringContaining('256') } });
  });

  it('refuses a body that is not a form, naming the expected content type', async () => {
    const response = await fetch(url('/token.do'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: 'demo-password' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      errors: { 'Content-Type': expect.stringContaining('x-www-form-urlencoded') },
    });
  });
});

describe('GET /rest-api/auth/{authToken}/login.do', () => {
  it('answers JSON with json=true, sets a hardened session cookie, and the token works once only', async () => {
    const token = await issueToken();
    const response = await fetch(url(`/${token}/login.do?json=true`));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, redirectUrl: '/index.do' });
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^dl_session=[0-9a-f]{32};/);
    for (const flag of ['HttpOnly', 'Secure', 'SameSite=Lax', 'Path=/']) expect(cookie).toContain(flag);
    const again = await fetch(url(`/${token}/login.do?json=true`));
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ success: false, error: expect.stringContaining('already used') });
  });

  it('redirects to /index.do when neither json nor callback is given', async () => {
    const token = await issueToken();
    const response = await fetch(url(`/${token}/login.do`), { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/index.do');
    expect(response.headers.get('set-cookie')).toMatch(/^dl_session=/);
  });

  it('answers JSONP with callback, as a script that cannot be sniffed, failures included', async () => {
    const token = await issueToken();
    const response = await fetch(url(`/${token}/login.do?callback=app.onLogin`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe('/**/app.onLogin({"success":true,"redirectUrl":"/index.do"});');
    const failed = await fetch(url(`/${token}/login.do?callback=cb`));
    expect(failed.status).toBe(200);
    expect(await failed.text()).toMatch(/^\/\*\*\/cb\(\{"success":false,"error":/);
  });

  it('refuses a callback that is not a plain identifier path with 400, without consuming the token', async () => {
    const token = await issueToken();
    for (const callback of ['alert(1)', 'a..b', 'x'.repeat(65), '</script>']) {
      const response = await fetch(url(`/${token}/login.do?callback=${encodeURIComponent(callback)}`));
      expect(response.status, callback).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, errors: { callback: expect.any(String) } });
    }
    expect((await fetch(url(`/${token}/login.do?json=true`))).status).toBe(200);
  });

  it('answers 404 for a malformed or unknown token', async () => {
    for (const token of ['abc', 'g'.repeat(32), '0'.repeat(32)]) {
      const response = await fetch(url(`/${token}/login.do?json=true`));
      expect(response.status, token).toBe(404);
      expect(await response.json()).toMatchObject({ success: false, error: expect.any(String) });
    }
  });

  it('refuses a token older than one minute', async () => {
    await setClock(ctx.service.url, { now: '2026-11-22T10:00:00Z' });
    try {
      const token = await issueToken();
      await setClock(ctx.service.url, { advanceSeconds: 61 });
      const response = await fetch(url(`/${token}/login.do?json=true`));
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: 'Token expired' });
    } finally {
      await setClock(ctx.service.url, { now: null });
    }
  });

  it('lets exactly one of twenty concurrent logins with one token succeed', async () => {
    const token = await issueToken();
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => fetch(url(`/${token}/login.do?json=true`)).then((response) => response.status)),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 404)).toHaveLength(19);
  });

  it('opens a session that authenticates limit calls until it expires', async () => {
    await setClock(ctx.service.url, { now: '2026-11-22T10:00:00Z' });
    try {
      const token = await issueToken();
      const login = await fetch(url(`/${token}/login.do?json=true`));
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
      const read = () => fetch(`${ctx.service.url}${LIMIT_READ}`, { headers: { cookie } });
      expect((await read()).status).not.toBe(401);
      await setClock(ctx.service.url, { advanceSeconds: 8 * 3600 + 1 });
      expect((await read()).status).toBe(401);
    } finally {
      await setClock(ctx.service.url, { now: null });
    }
  });
});

describe('password reset', () => {
  it('answers forgot.do the same, in about the same time, for known and unknown addresses', async () => {
    const sentBefore = (await outbox()).length;
    const [known, knownMs] = await durationOf(() => postForm(url('/forgot.do'), { email: 'viewer@example.com' }));
    const [unknown, unknownMs] = await durationOf(() => postForm(url('/forgot.do'), { email: 'nobody@example.com' }));
    const [empty] = await durationOf(() => postForm(url('/forgot.do'), {}));
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(empty.status).toBe(200);
    const bodies = [await known.text(), await unknown.text(), await empty.text()];
    expect(new Set(bodies).size).toBe(1);
    expect(knownMs).toBeGreaterThanOrEqual(FORGOT_RESPONSE_FLOOR_MS - 5);
    expect(unknownMs).toBeGreaterThanOrEqual(FORGOT_RESPONSE_FLOOR_MS - 5);
    expect(Math.abs(knownMs - unknownMs)).toBeLessThan(150);
    const sent = (await outbox()).slice(sentBefore);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      to: 'viewer@example.com',
      text: expect.stringMatching(/reset-password\.do\?token=[0-9a-f]{32}/),
    });
  });

  it('sends at most one reset mail per address every 10 minutes, six an hour at most', async () => {
    await setClock(ctx.service.url, { now: '2026-11-22T12:00:00Z' });
    // 69 requests: the answer floor, proven with real time above, would make this test wait 17 s for nothing
    ctx.service.dependencies.config.forgotResponseFloorMs = 0;
    try {
      const sentBefore = (await outbox()).length;
      for (let i = 0; i < 7; i++)
        expect((await postForm(url('/forgot.do'), { email: 'alice@example.com' })).status).toBe(200);
      expect((await outbox()).length - sentBefore).toBe(1);
      await setClock(ctx.service.url, { advanceSeconds: 9 * 60 });
      await postForm(url('/forgot.do'), { email: 'ALICE@example.com' });
      expect((await outbox()).length - sentBefore).toBe(1);
      await setClock(ctx.service.url, { advanceSeconds: 60 });
      await postForm(url('/forgot.do'), { email: 'ALICE@example.com' });
      expect((await outbox()).length - sentBefore).toBe(2);
      for (let minute = 0; minute < 60; minute++) {
        await setClock(ctx.service.url, { advanceSeconds: 60 });
        await postForm(url('/forgot.do'), { email: 'alice@example.com' });
      }
      expect((await outbox()).length - sentBefore).toBe(2 + 6);
    } finally {
      delete ctx.service.dependencies.config.forgotResponseFloorMs;
      await setClock(ctx.service.url, { now: null });
    }
  });

  it('sets a new password with the mailed token, revokes old sessions, and refuses the token again', async () => {
    const token = await issueToken('publisher', 'publisher-password');
    const cookie = ((await fetch(url(`/${token}/login.do?json=true`))).headers.get('set-cookie') ?? '').split(';')[0]!;
    await postForm(url('/forgot.do'), { email: 'publisher@example.com' });
    const mail = (await outbox()).filter((message) => message.to === 'publisher@example.com').at(-1)!;
    const resetToken = /token=([0-9a-f]{32})/.exec(mail.text)![1]!;

    const weak = await postForm(url('/reset-password.do'), { token: resetToken, password: 'short' });
    expect(weak.status).toBe(400);
    expect(await weak.json()).toMatchObject({ errors: { password: expect.stringContaining('10') } });

    const reset = await postForm(url('/reset-password.do'), { token: resetToken, password: 'a-brand-new-password' });
    expect(reset.status).toBe(200);
    expect((await fetch(`${ctx.service.url}${LIMIT_READ}`, { headers: { cookie } })).status).toBe(401);
    expect((await postForm(url('/token.do'), { username: 'publisher', password: 'publisher-password' })).status).toBe(
      401,
    );
    expect((await postForm(url('/token.do'), { username: 'publisher', password: 'a-brand-new-password' })).status).toBe(
      200,
    );
    const now = ctx.service.clock.now().getTime();
    const hashQuery = new URLSearchParams(hashAuth('publisher', 'a-brand-new-password', now));
    expect((await fetch(`${ctx.service.url}/rest-api/site/20/limits.do?${hashQuery}`)).status).not.toBe(401);

    const reused = await postForm(url('/reset-password.do'), { token: resetToken, password: 'another-new-password' });
    expect(reused.status).toBe(404);
    expect(
      (await postForm(url('/reset-password.do'), { token: 'nonsense', password: 'another-new-password' })).status,
    ).toBe(404);
    expect((await postForm(url('/reset-password.do'), { password: 'another-new-password' })).status).toBe(400);
  });
});
