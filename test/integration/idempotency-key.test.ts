import { describe, expect, it } from 'vitest';
import { hashAuth, postJson, setClock, withQuery } from '../support/http';
import { scanTable, useTestService } from '../support/local-service';

/** Writes sent with an Idempotency-Key, through the local server, with faults before and after a commit. */
const ctx = useTestService();
const SET = '/rest-api/campaign/100/limits/set.do';

const send = (fields: Record<string, string>, headers: Record<string, string>, query: Record<string, string> = {}) =>
  fetch(`${ctx.service.url}${Object.keys(query).length > 0 ? withQuery(SET, query) : SET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  });

const historyCount = async () =>
  (await scanTable(ctx.service)).filter(
    (item) => item.PK === 'CAMPAIGN#100' && String(item.SK).startsWith('HISTORY#V#'),
  ).length;

const writesSeen = async () =>
  ((await (await fetch(`${ctx.service.url}/_local/faults`)).json()) as { writesSeen: number }).writesSeen;

/** From the next write request on, the `nth` (counting from 1) is applied and its answer lost. */
const loseAnswerOfWrite = async (nth: number) => {
  // counting starts only once a fault is set: a fault far ahead makes the count begin now
  await postJson(`${ctx.service.url}/_local/faults`, { failWrites: [1_000_000] });
  const seen = await writesSeen();
  await postJson(`${ctx.service.url}/_local/faults`, { failWrites: [1_000_000], loseAnswers: [seen + nth] });
};

const clearFaults = () => postJson(`${ctx.service.url}/_local/faults`, { failWrites: [] });
const apiKey = { 'X-Api-Key': 'demo-key-0001' };
let keys = 0;
const newKey = () => `"retry-${Date.now()}-${++keys}"`;

describe('Idempotency-Key', () => {
  it('answers the stored answer to the same key and request, writes once, and refuses another request 422', async () => {
    const key = newKey();
    const before = await historyCount();
    const first = await send({ dailyClicksLimit: '11' }, { ...apiKey, 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    const again = await send({ dailyClicksLimit: '11' }, { ...apiKey, 'Idempotency-Key': key });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(firstBody);
    expect(await historyCount()).toBe(before + 1);
    const other = await send({ dailyClicksLimit: '12' }, { ...apiKey, 'Idempotency-Key': key });
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await historyCount()).toBe(before + 1);
  });

  it("keeps each caller's keys apart, and refuses a malformed key 400 naming the header", async () => {
    const key = newKey();
    expect((await send({ dailyClicksLimit: '13' }, { ...apiKey, 'Idempotency-Key': key })).status).toBe(200);
    const alice = await send({ dailyClicksLimit: '13' }, { 'X-Api-Key': 'alice-key-0001', 'Idempotency-Key': key });
    expect(alice.headers.get('idempotent-replayed')).toBeNull();
    expect(alice.status).not.toBe(422);
    const malformed = await send({ dailyClicksLimit: '14' }, { ...apiKey, 'Idempotency-Key': '"a"b"' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ errors: { 'Idempotency-Key': expect.any(String) } });
  });

  it('answers the stored answer to a retry after a commit whose answer was lost, and writes once', async () => {
    for (const [label, headers, query] of [
      ['API key', apiKey, {}],
      ['hash in the query', {}, hashAuth('demo', 'demo-password', ctx.service.clock.now().getTime())],
    ] as const) {
      // the write's own transaction is the last write of the request: the claim, the replay guard, then it
      const last = label === 'API key' ? 2 : 3;
      const key = newKey();
      const value = String(20 + keys);
      const before = await historyCount();
      await loseAnswerOfWrite(last);
      const lost = await send({ dailyClicksLimit: value }, { ...headers, 'Idempotency-Key': key }, query);
      await clearFaults();
      expect(lost.status, label).toBeGreaterThanOrEqual(500);
      expect(await historyCount(), label).toBe(before + 1);
      const retry = await send({ dailyClicksLimit: value }, { ...headers, 'Idempotency-Key': key }, query);
      expect(retry.status, label).toBe(200);
      expect(retry.headers.get('idempotent-replayed'), label).toBe('true');
      expect(await retry.json(), label).toMatchObject({ success: true, dailyClicksLimit: Number(value) });
      expect(await historyCount(), label).toBe(before + 1);
    }
  });

  it('answers 409 while a claim is held, and lets a claim left by a lost answer lapse after a minute', async () => {
    const key = newKey();
    const before = await historyCount();
    await loseAnswerOfWrite(1);
    expect(
      (await send({ dailyClicksLimit: '31' }, { ...apiKey, 'Idempotency-Key': key })).status,
    ).toBeGreaterThanOrEqual(500);
    await clearFaults();
    const busy = await send({ dailyClicksLimit: '31' }, { ...apiKey, 'Idempotency-Key': key });
    expect(busy.status).toBe(409);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(await busy.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
    expect(await historyCount()).toBe(before);
    await setClock(ctx.service.url, { advanceSeconds: 61 });
    try {
      expect((await send({ dailyClicksLimit: '31' }, { ...apiKey, 'Idempotency-Key': key })).status).toBe(200);
      expect(await historyCount()).toBe(before + 1);
    } finally {
      await setClock(ctx.service.url, { now: null });
    }
  });

  it('lets a failed write go: a fault before the commit, or a 4xx, and the same key may be sent again', async () => {
    const key = newKey();
    const before = await historyCount();
    const invalid = await send({ dailyClicksLimit: '-1' }, { ...apiKey, 'Idempotency-Key': key });
    expect(invalid.status).toBe(400);
    await postJson(`${ctx.service.url}/_local/faults`, { failWrites: [1_000_000] });
    await postJson(`${ctx.service.url}/_local/faults`, { failWrites: [(await writesSeen()) + 2] });
    expect((await send({ dailyClicksLimit: '41' }, { ...apiKey, 'Idempotency-Key': key })).status).toBe(503);
    await clearFaults();
    expect(await historyCount()).toBe(before);
    const sent = await send({ dailyClicksLimit: '41' }, { ...apiKey, 'Idempotency-Key': key });
    expect(sent.status).toBe(200);
    expect(sent.headers.get('idempotent-replayed')).toBeNull();
    expect(await historyCount()).toBe(before + 1);
  });

  it('answers a stored hash-signed write before the replay guard: a retry is answered, not refused', async () => {
    const signed = hashAuth('demo', 'demo-password', ctx.service.clock.now().getTime() + 7);
    const key = newKey();
    const first = await send({ dailyClicksLimit: '51' }, { 'Idempotency-Key': key }, signed);
    expect(first.status).toBe(200);
    const again = await send({ dailyClicksLimit: '51' }, { 'Idempotency-Key': key }, signed);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // without the key, the identical signed write is a replay
    expect((await send({ dailyClicksLimit: '51' }, {}, signed)).status).toBe(401);
  });

  it("takes at most 48 ids in a keyed per-action delete.do, whose answer is one of its transaction's 100 items", async () => {
    const ids = Array.from({ length: 49 }, (_, index) => String(index + 1)).join(',');
    const refused = await fetch(`${ctx.service.url}/rest-api/per-action/delete.do`, {
      method: 'POST',
      headers: { ...apiKey, 'Idempotency-Key': newKey() },
      body: new URLSearchParams({ type: 'CAMPAIGN', entityId: '100', ids }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ errors: { ids: 'at most 48 ids per call with an Idempotency-Key' } });
  });
});
