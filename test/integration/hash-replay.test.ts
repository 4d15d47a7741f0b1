import { describe, expect, it } from 'vitest';
import { hashAuth, setClock } from '../support/http';
import { useTestService } from '../support/local-service';

/**
 * The replay guard of hash authentication keys a signed write by its canonical form: spelling the same request
 * differently (hash in capitals, id with leading zeros, a parameter repeated, parameters reordered or encoded
 * otherwise) is the same request, refused inside the window; another request under the same hash is not.
 */
const ctx = useTestService();
const base = () => ctx.service.url;

let second = 0;
/** A fresh, whole-second timestamp per test, as the Epom gem signs. */
const freshSignature = async (): Promise<Record<string, string>> => {
  second += 10;
  const now = new Date(Date.UTC(2026, 10, 23, 9, 0, second));
  await setClock(base(), { now: now.toISOString() });
  return hashAuth('demo', 'demo-password', now.getTime());
};

const query = (pairs: [string, string][]): string =>
  pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');

const send = async (method: string, path: string, pairs: [string, string][]) => {
  const response = await fetch(`${base()}${path}?${query(pairs)}`, { method });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const signed = (auth: Record<string, string>): [string, string][] => Object.entries(auth);

describe('the canonical replay identity of a signed write', () => {
  it('refuses the same write with its hash in capitals', async () => {
    const auth = await freshSignature();
    const set = '/rest-api/campaign/102/limits/set.do';
    expect((await send('POST', set, [...signed(auth), ['dailyClicksLimit', '41']])).status).toBe(200);
    const shouted = { ...auth, hash: auth.hash!.toUpperCase() };
    const replay = await send('POST', set, [...signed(shouted), ['dailyClicksLimit', '41']]);
    expect(replay).toMatchObject({ status: 401, body: { code: 'REQUEST_REPLAYED' } });
  });

  it('refuses the same write with the entity id written with leading zeros', async () => {
    const auth = await freshSignature();
    const pairs: [string, string][] = [...signed(auth), ['dailyClicksLimit', '42']];
    expect((await send('POST', '/rest-api/campaign/102/limits/set.do', pairs)).status).toBe(200);
    const replay = await send('POST', '/rest-api/campaign/0102/limits/set.do', pairs);
    expect(replay).toMatchObject({ status: 401, body: { code: 'REQUEST_REPLAYED' } });
  });

  it('refuses the same write with a parameter repeated, reordered, or its value written with leading zeros', async () => {
    const auth = await freshSignature();
    const set = '/rest-api/campaign/102/limits/set.do';
    expect((await send('POST', set, [...signed(auth), ['dailyClicksLimit', '43']])).status).toBe(200);
    for (const pairs of [
      [...signed(auth), ['dailyClicksLimit', '43'], ['dailyClicksLimit', '43']],
      [['dailyClicksLimit', '43'], ...signed(auth).reverse()],
      [...signed(auth), ['dailyClicksLimit', '043']],
    ] as [string, string][][])
      expect(await send('POST', set, pairs), JSON.stringify(pairs)).toMatchObject({
        status: 401,
        body: { code: 'REQUEST_REPLAYED' },
      });
  });

  it('refuses a replayed reset whose counter names are repeated or reordered', async () => {
    const auth = await freshSignature();
    const reset = '/rest-api/campaign/102/limits/reset.do';
    const first = await send('POST', reset, [
      ...signed(auth),
      ['limitCounters', 'DAILY_CLICKS'],
      ['limitCounters', 'TOTAL_CLICKS'],
    ]);
    expect(first.status).toBe(200);
    const replay = await send('POST', reset, [...signed(auth), ['limitCounters', 'TOTAL_CLICKS,DAILY_CLICKS']]);
    expect(replay).toMatchObject({ status: 401, body: { code: 'REQUEST_REPLAYED' } });
  });

  it('tells the caller to sign again with a new timestamp, and still takes another write under the same hash', async () => {
    const auth = await freshSignature();
    const set = '/rest-api/campaign/102/limits/set.do';
    await send('POST', set, [...signed(auth), ['dailyClicksLimit', '44']]);
    const replay = await send('POST', set, [...signed(auth), ['dailyClicksLimit', '44']]);
    expect(replay.status).toBe(401);
    expect(String(replay.body.message)).toMatch(/new timestamp/);
    expect((await send('POST', set, [...signed(auth), ['dailyClicksLimit', '45']])).status).toBe(200);
    // reads change nothing: the same read may repeat
    const read = '/rest-api/campaign/102/limits.do';
    expect((await send('GET', read, signed(auth))).status).toBe(200);
    expect((await send('GET', read, signed(auth))).status).toBe(200);
  });
});

describe('credential parameters given more than once', () => {
  const set = '/rest-api/campaign/102/limits/set.do';

  it('is a 400 naming the parameter when one is repeated in the query', async () => {
    const auth = await freshSignature();
    for (const name of ['username', 'timestamp', 'hash']) {
      const answer = await send('POST', set, [...signed(auth), [name, auth[name]!], ['dailyClicksLimit', '46']]);
      expect(answer, name).toMatchObject({
        status: 400,
        body: { code: 'INVALID_PARAMETER', errors: { [name]: expect.any(String) } },
      });
    }
  });

  it('is a 400 naming the parameter when the body gives another value than the query', async () => {
    const auth = await freshSignature();
    const later = hashAuth('demo', 'demo-password', Number(auth.timestamp) + 1000);
    const response = await fetch(`${base()}${set}?${query(signed(auth))}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: query([...signed(later), ['dailyClicksLimit', '47']]),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: Record<string, string> };
    expect(Object.keys(body.errors).sort()).toEqual(['hash', 'timestamp']);
  });

  it('accepts the same credentials in the URL and the body, as the PHP samples send a DELETE', async () => {
    const auth = await freshSignature();
    const pairs: [string, string][] = [...signed(auth), ['dailyClicksLimit', '48']];
    const response = await fetch(`${base()}${set}?${query(pairs)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: query(pairs),
    });
    expect(response.status).toBe(200);
  });
});
