import { beforeAll, describe, expect, it } from 'vitest';
import { hashAuth, postForm, setClock, withQuery } from '../support/http';
import { probingRequests, useTestService } from '../support/local-service';

const ctx = useTestService();
const READ = '/rest-api/campaign/100/limits.do';
const SET = '/rest-api/campaign/100/limits/set.do';
const AT = Date.parse('2026-11-27T06:00:00.000Z');
const now = () => ctx.service.clock.now().getTime();

// the server's clock stands still (the service is this file's alone), so that its time in an answer can be compared exactly
beforeAll(async () => {
  await setClock(ctx.service.url, { now: new Date(AT).toISOString() });
});
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${ctx.service.url}${path}`, { headers });

interface Refusal {
  success: boolean;
  code: string;
  message: string;
  serverTime: number;
  requestId: string;
}

/** A 401 with its code, the server's time and the request id of the header, as every refusal carries them. */
const refusalOf = async (response: Response): Promise<Refusal> => {
  expect(response.status).toBe(401);
  const body = (await response.json()) as Refusal;
  expect(body.success).toBe(false);
  expect(body.requestId).toBe(response.headers.get('x-request-id'));
  // a replayed write was authenticated: nothing about the credential to fix
  expect(body.serverTime).toBe(body.code === 'REQUEST_REPLAYED' ? undefined : AT);
  return body;
};

describe('a refused credential names what to fix', () => {
  it('tells a missing credential apart, seen by the authorizer or in a form body', async () => {
    for (const response of [await get(READ), await postForm(`${ctx.service.url}${SET}`, { dailyClicksLimit: '5' })])
      expect(await refusalOf(response)).toMatchObject({
        code: 'CREDENTIALS_MISSING',
        message: expect.stringContaining('send X-Api-Key'),
      });
  });

  it("names the server's time and the window for a stale timestamp, and says when it is in seconds", async () => {
    {
      const at = AT;
      const stale = await refusalOf(await get(withQuery(READ, hashAuth('alice', 'alice-password', at - 600_000))));
      expect(stale).toMatchObject({ code: 'TIMESTAMP_OUT_OF_WINDOW', serverTime: at });
      expect(stale.message).toContain('600 s behind');
      expect(stale.message).toContain('within 300 s');
      expect(stale.message).toContain('2026-11-27T06:00:00.000Z');
      const inSeconds = hashAuth('alice', 'alice-password', at / 1000);
      const seconds = await refusalOf(
        await postForm(`${ctx.service.url}${SET}`, { ...inSeconds, dailyClicksLimit: '1' }),
      );
      expect(seconds).toMatchObject({ code: 'TIMESTAMP_OUT_OF_WINDOW' });
      expect(seconds.message).toContain(`${at / 1000} looks like seconds`);
      const ahead = await refusalOf(await get(withQuery(READ, hashAuth('alice', 'alice-password', at + 301_000))));
      expect(ahead.message).toContain('301 s ahead of');
    }
  });

  it('answers an unknown user name exactly as a wrong password, with the same reads', async () => {
    const answers: Omit<Refusal, 'requestId'>[] = [];
    const reads: string[][] = [];
    for (const [username, offset] of [
      ['alice', 1],
      ['nobody-by-this-name', 2],
    ] as const) {
      const commands: string[] = [];
      const response = await probingRequests(
        ctx.service,
        async (command, _input, send) => {
          commands.push(command);
          return send();
        },
        () => get(withQuery(READ, hashAuth(username, 'wrong-password', now() + offset))),
      );
      const answer: Partial<Refusal> = await refusalOf(response);
      delete answer.requestId;
      answers.push(answer as Omit<Refusal, 'requestId'>);
      reads.push(commands);
    }
    expect(answers[0]).toMatchObject({ code: 'SIGNATURE_INVALID' });
    expect(answers[1]).toEqual(answers[0]);
    expect(reads[1]).toEqual(reads[0]);
  });

  it('tells an inactive account only to a caller whose credential is right', async () => {
    const signedRight = await refusalOf(await get(withQuery(READ, hashAuth('former', 'former-password', now() + 3))));
    expect(signedRight.code).toBe('ACCOUNT_INACTIVE');
    const signedWrong = await refusalOf(await get(withQuery(READ, hashAuth('former', 'guess', now() + 4))));
    expect(signedWrong.code).toBe('SIGNATURE_INVALID');
    expect((await refusalOf(await get(READ, { 'X-Api-Key': 'former-key-0001' }))).code).toBe('ACCOUNT_INACTIVE');
  });

  it('tells an unknown API key and an ended session apart from the rest', async () => {
    expect(await refusalOf(await get(READ, { 'X-Api-Key': 'demo-key-0002' }))).toMatchObject({
      code: 'API_KEY_INVALID',
      message: expect.stringContaining('unknown or revoked'),
    });
    for (const cookie of [`dl_session=${'a'.repeat(32)}`, 'dl_session=../../etc'])
      expect((await refusalOf(await get(READ, { cookie }))).code).toBe('SESSION_EXPIRED');
  });

  it('keeps REQUEST_REPLAYED for a signed write sent twice', async () => {
    const fields = { ...hashAuth('demo', 'demo-password', now() + 5), dailyClicksLimit: '7' };
    expect((await postForm(`${ctx.service.url}${SET}`, fields)).status).toBe(200);
    expect((await refusalOf(await postForm(`${ctx.service.url}${SET}`, fields))).code).toBe('REQUEST_REPLAYED');
  });
});

describe('every error body', () => {
  it('carries the requestId of the X-Request-Id header, gateway-made or not', async () => {
    const key = { 'X-Api-Key': 'demo-key-0001' };
    for (const response of [
      await get('/rest-api/campaign/abc/limits.do', key),
      await get('/rest-api/campaign/99999/limits.do', key),
      await get('/rest-api/nowhere.do'),
      await fetch(`${ctx.service.url}${READ}`, { method: 'PUT' }),
      await get('/rest-api/site/20/limits.do', { 'X-Api-Key': 'alice-key-0001' }),
    ]) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      const body = (await response.json()) as { requestId?: string };
      expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.requestId).toBe(response.headers.get('x-request-id'));
    }
  });
});
