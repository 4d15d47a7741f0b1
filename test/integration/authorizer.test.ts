import { describe, expect, it } from 'vitest';
import { hashAuth, postForm, setClock, withQuery } from '../support/http';
import { useTestService } from '../support/local-service';

const ctx = useTestService();
const READ = '/rest-api/campaign/100/limits.do';
const SET = '/rest-api/campaign/100/limits/set.do';
const now = () => ctx.service.clock.now().getTime();
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${ctx.service.url}${path}`, { headers });

/** Past authentication, an operation answers for itself (501 while the limits issue is open); 401 means refused. */
const expectAuthenticated = (response: Response) => expect(response.status).not.toBe(401);
const expectRefused = async (response: Response) => {
  expect(response.status).toBe(401);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(await response.json()).toMatchObject({ success: false, message: expect.any(String) });
};

describe('request authentication', () => {
  it('refuses a request without credentials', async () => {
    await expectRefused(await get(READ));
  });

  it("accepts a valid X-Api-Key and refuses an unknown one or an inactive user's", async () => {
    expectAuthenticated(await get(READ, { 'X-Api-Key': 'demo-key-0001' }));
    await expectRefused(await get(READ, { 'X-Api-Key': 'demo-key-0002' }));
    await expectRefused(await get(READ, { 'X-Api-Key': 'former-key-0001' }));
  });

  it('accepts hash parameters in the query within five minutes of the server clock; a read may repeat', async () => {
    const fresh = hashAuth('alice', 'alice-password', now());
    expectAuthenticated(await get(withQuery(READ, fresh)));
    // real clients compute timestamps to the second: the same hash may serve several reads
    expectAuthenticated(await get(withQuery(READ, fresh)));
    await expectRefused(await get(withQuery(READ, hashAuth('alice', 'alice-password', now() - 5 * 60_000 - 1000))));
    expectAuthenticated(await get(withQuery(READ, hashAuth('alice', 'alice-password', now() + 4 * 60_000))));
    await expectRefused(await get(withQuery(READ, hashAuth('alice', 'wrong-password', now() + 1))));
    await expectRefused(await get(withQuery(READ, hashAuth('nobody', 'alice-password', now() + 2))));
    await expectRefused(await get(withQuery(READ, hashAuth('former', 'former-password', now() + 3))));
  });

  it('does not burn a timestamp on a wrong hash', async () => {
    const timestamp = now() + 10;
    await expectRefused(
      await get(withQuery(READ, { ...hashAuth('alice', 'alice-password', timestamp), hash: '0'.repeat(32) })),
    );
    expectAuthenticated(await get(withQuery(READ, hashAuth('alice', 'alice-password', timestamp))));
  });

  it('accepts hash parameters in a form body, checked by the family handler, once', async () => {
    const fields = { ...hashAuth('demo', 'demo-password', now() + 20), dailyImpressionsLimit: '10' };
    expectAuthenticated(await postForm(`${ctx.service.url}${SET}`, fields));
    await expectRefused(await postForm(`${ctx.service.url}${SET}`, fields));
    await expectRefused(await postForm(`${ctx.service.url}${SET}`, { dailyImpressionsLimit: '10' }));
    await expectRefused(await postForm(`${ctx.service.url}${SET}`, { ...hashAuth('demo', 'nope', now() + 21) }));
  });

  it('refuses a forged or malformed session cookie', async () => {
    await expectRefused(await get(READ, { cookie: `dl_session=${'a'.repeat(32)}` }));
    await expectRefused(await get(READ, { cookie: 'dl_session=../../etc' }));
  });

  it('guards every non-auth route', async () => {
    for (const [method, path] of [
      ['DELETE', '/rest-api/site/20/limits.do'],
      ['GET', '/rest-api/banners/limits.do?bannerIds=1000'],
      ['POST', '/rest-api/per-action/delete.do'],
      ['GET', '/rest-api/per-action/limits/CAMPAIGN/100.do'],
    ] as const) {
      const response = await fetch(`${ctx.service.url}${path}`, { method });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('authorizer result', () => {
  const event = (headers: Record<string, string>, query: Record<string, string> | null = null) =>
    ({
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:eu-west-1:123456789012:api/prod/GET/rest-api/campaign/{campaignId}/limits.do',
      headers,
      queryStringParameters: query,
    }) as never;

  it('puts the principal in the context and meters every caller under its own usage identity', async () => {
    const { createHandler } = await import('../../functions/authorizer/handler');
    const authorizer = createHandler(ctx.service.dependencies, {
      fallback: async () => 'default-usage-key',
      anonymous: async () => 'anonymous-usage-key',
    });
    const byKey = await authorizer(event({ 'x-api-key': 'alice-key-0001' }));
    expect(byKey).toMatchObject({
      principalId: '2',
      context: { authenticated: true, userId: 2, username: 'alice', role: 'ADVERTISER', method: 'apiKey' },
      usageIdentifierKey: 'alice-key-0001',
      policyDocument: { Statement: [{ Effect: 'Allow', Action: 'execute-api:Invoke' }] },
    });
    const byHash = await authorizer(event({}, hashAuth('viewer', 'viewer-password', now() + 30)));
    expect(byHash).toMatchObject({
      principalId: '3',
      context: { method: 'hash' },
      usageIdentifierKey: 'default-usage-key',
    });
    // a partner with a metering key of its own is metered by it, whichever way it authenticates
    await ctx.service.dependencies.store.update({
      Key: { PK: 'USER#3', SK: 'PROFILE' },
      UpdateExpression: 'SET usageKey = :key',
      ExpressionAttributeValues: { ':key': 'viewer-metering-key' },
    });
    // a container knows a profile change once its warm cache has let go of the user (60 s at most)
    await setClock(ctx.service.url, { advanceSeconds: 61 });
    const metered = await authorizer(event({}, hashAuth('viewer', 'viewer-password', now() + 31)));
    await setClock(ctx.service.url, { now: null });
    expect(metered).toMatchObject({ principalId: '3', usageIdentifierKey: 'viewer-metering-key' });
    expect(JSON.stringify(metered.context)).not.toContain('viewer-metering-key');
    // strangers' form posts spend the anonymous plan's quota, never a partner's
    const formPost = await authorizer(event({ 'content-type': 'application/x-www-form-urlencoded' }));
    expect(formPost).toMatchObject({
      principalId: 'anonymous',
      context: { authenticated: false },
      usageIdentifierKey: 'anonymous-usage-key',
    });
    await expect(authorizer(event({}))).rejects.toThrow('Unauthorized');
    // a refused credential is a Deny naming the refusal, which the stack's ACCESS_DENIED answer renders as a 401
    expect(await authorizer(event({ 'x-api-key': 'nope-nope-nope' }))).toEqual({
      principalId: 'refused',
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Effect: 'Deny', Action: 'execute-api:Invoke', Resource: expect.any(String) }],
      },
      context: { code: 'API_KEY_INVALID', message: expect.stringContaining('unknown or revoked') },
    });
  });
});
