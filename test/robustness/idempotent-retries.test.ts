import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, bodyWithoutRequestId, postJson, setClock } from '../support/http';
import { scanTable, useTestService } from '../support/local-service';

/**
 * A write sent with an Idempotency-Key, made to fail at any of its write requests (the write refused, or applied and
 * its answer lost: a timeout after the commit), then retried under the same key as a client whose answer never came
 * would: one write, one history entry, and from then on the same answer with `Idempotent-Replayed: true`. One
 * property per write family (limit, per-action, reset, webhook subscriptions). `RETRY_SEED=S` replays a printed seed.
 */
const seed = Number(process.env.RETRY_SEED ?? Date.now() % 2 ** 31);
const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');
const CAMPAIGN = '/rest-api/campaign/100';

type Fault = { kind: 'fail' | 'lose'; nth: number };
/** Any of the first write requests of the operation, or none when it makes fewer. */
const faults = fc.record({ kind: fc.constantFrom<Fault['kind']>('fail', 'lose'), nth: fc.integer({ min: 1, max: 4 }) });

/** From the next DynamoDB write request on, the `nth` (counting from 1) is refused, or applied and its answer lost. */
const injectFault = ({ kind, nth }: Fault) =>
  postJson(`${ctx.service.url}/_local/faults`, {
    failWrites: kind === 'fail' ? [nth] : [1_000_000],
    loseAnswers: kind === 'lose' ? [nth] : [],
  });
const clearFaults = () => postJson(`${ctx.service.url}/_local/faults`, { failWrites: [] });

let keys = 0;
const newKey = () => `"retries-${seed}-${++keys}"`;

const send = (path: string, fields: Record<string, string>, key: string) =>
  fetch(`${ctx.service.url}${path}`, {
    method: 'POST',
    headers: { 'X-Api-Key': 'demo-key-0001', 'Idempotency-Key': key },
    body: new URLSearchParams(fields),
  });

const historyOf = async (operations: readonly string[]) =>
  (await scanTable(ctx.service)).filter(
    (item) =>
      item.PK === 'CAMPAIGN#100' &&
      String(item.SK).startsWith('HISTORY#V#') &&
      operations.includes(String(item.operation)),
  );

/**
 * Sends the write with a fault, then retries as a client that never got the answer: a key still claimed (409) is
 * retried once its claim has lapsed (a minute, on the local clock). Answers the first successful answer, which is
 * the stored one whenever the faulty attempt's write landed (`landed`): a write that landed never runs again.
 */
const sendWithFaultAndRetry = async (
  write: { path: string; fields: Record<string, string>; key: string },
  fault: Fault,
  landed: () => Promise<boolean> = async () => false,
) => {
  const { path, fields, key } = write;
  await injectFault(fault);
  // whatever this answers, the client never sees it
  await send(path, fields, key);
  await clearFaults();
  const committed = await landed();
  for (let attempt = 1; attempt <= 3; attempt++) {
    const retry = await send(path, fields, key);
    if (retry.status === 200 && committed) expect(retry.headers.get('idempotent-replayed')).toBe('true');
    if (retry.status === 200) return retry;
    expect([409, 500, 503], `retry ${attempt}: ${await retry.clone().text()}`).toContain(retry.status);
    if (retry.status === 409) await setClock(ctx.service.url, { advanceSeconds: 61 });
  }
  throw new Error('no retry succeeded');
};

/** Once the write is stored, the same key and request answer what the successful attempt answered, replayed. */
const expectReplayed = async (path: string, fields: Record<string, string>, key: string, answered: string) => {
  const replay = await send(path, fields, key);
  expect(replay.status).toBe(200);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(bodyWithoutRequestId(await replay.text())).toEqual(bodyWithoutRequestId(answered));
};

const property = (name: string, run: (fault: Fault) => Promise<void>, examples: [Fault][]) =>
  it(name, async () => {
    console.log(`${name}: seed ${seed} (RETRY_SEED=${seed} to replay)`);
    await fc.assert(fc.asyncProperty(faults, run), { seed, numRuns: 8, examples });
  });

beforeAll(async () => {
  expect((await demo().post(`${CAMPAIGN}/limits/set.do`, { totalClicksLimit: '100000' })).status).toBe(200);
});

afterEach(async () => {
  await clearFaults();
  await setClock(ctx.service.url, { now: null });
});

let values = 0;
const nextValue = () => String(1000 + ++values);

describe('a retried write with an Idempotency-Key, after a fault at any write request', () => {
  property(
    'limits (set.do): one write, one history entry, the stored answer',
    async (fault) => {
      const [path, key, value] = [`${CAMPAIGN}/limits/set.do`, newKey(), nextValue()];
      const before = (await historyOf(['set'])).length;
      const landed = async () => (await historyOf(['set'])).length > before;
      const retried = await sendWithFaultAndRetry({ path, fields: { dailyClicksLimit: value }, key }, fault, landed);
      const answered = await retried.text();
      expect(JSON.parse(answered)).toMatchObject({ success: true, dailyClicksLimit: Number(value) });
      expect((await historyOf(['set'])).length).toBe(before + 1);
      await expectReplayed(path, { dailyClicksLimit: value }, key, answered);
      expect((await historyOf(['set'])).length).toBe(before + 1);
    },
    // the claim's answer lost; the transaction's answer lost (after its commit)
    [[{ kind: 'lose', nth: 1 }], [{ kind: 'lose', nth: 2 }]],
  );

  property(
    'per-action (add): one write, one history entry, the stored answer',
    async (fault) => {
      const [path, key, value] = ['/rest-api/per-action/add/limit/CAMPAIGN/100.do', newKey(), nextValue()];
      const fields = { actionId: '7', dailyConversionsLimit: value };
      const before = (await historyOf(['actionAdd'])).length;
      const landed = async () => (await historyOf(['actionAdd'])).length > before;
      const retried = await sendWithFaultAndRetry({ path, fields, key }, fault, landed);
      const answered = await retried.text();
      expect(JSON.parse(answered)).toMatchObject({
        success: true,
        actionLimit: { actionId: 7, dailyConversionsLimit: Number(value) },
      });
      expect((await historyOf(['actionAdd'])).length).toBe(before + 1);
      await expectReplayed(path, fields, key, answered);
      expect((await historyOf(['actionAdd'])).length).toBe(before + 1);
    },
    // the first add also takes a record id (write 2): its transaction is write 3; later adds commit at write 2
    [[{ kind: 'lose', nth: 3 }], [{ kind: 'lose', nth: 2 }]],
  );

  property(
    'reset.do: queued again under the same id, applied once by the flush, the stored answer',
    async (fault) => {
      const [path, key] = [`${CAMPAIGN}/limits/reset.do`, newKey()];
      const fields = { limitCounters: 'TOTAL_CLICKS' };
      const before = (await historyOf(['reset'])).length;
      const retried = await sendWithFaultAndRetry({ path, fields, key }, fault);
      const answered = await retried.text();
      expect(JSON.parse(answered)).toMatchObject({ success: true, limitCounters: ['TOTAL_CLICKS'] });
      await expectReplayed(path, fields, key, answered);
      expect(ctx.service.resetQueue.size).toBeGreaterThanOrEqual(1);
      const flushed = await postJson(`${ctx.service.url}/_local/flush`, {});
      expect(await flushed.json()).toMatchObject({ applied: 1 });
      expect(ctx.service.resetQueue.size).toBe(0);
      expect((await historyOf(['reset'])).length).toBe(before + 1);
    },
    // the answer's store (write 2, after the enqueue) refused: the reset queued twice, applied once
    [[{ kind: 'fail', nth: 2 }], [{ kind: 'lose', nth: 2 }]],
  );
});

describe('a webhook subscription created with an Idempotency-Key, after a fault at any write request', () => {
  const listed = async () =>
    ((await (await demo().get('/rest-api/webhooks.do')).json()) as { webhooks: { id: string }[] }).webhooks;

  property(
    'one subscription, its secret answered again, replayed',
    async (fault) => {
      const [path, key] = ['/rest-api/webhooks/create.do', newKey()];
      const fields = { url: 'http://127.0.0.1:9/hooks', events: 'limit.reached' };
      const before = (await listed()).length;
      const landed = async () => (await listed()).length > before;
      const retried = await sendWithFaultAndRetry({ path, fields, key }, fault, landed);
      const answered = await retried.text();
      const created = JSON.parse(answered) as { webhook: { id: string }; secret: string };
      expect(created.secret).toMatch(/^whsec_/);
      expect(await listed()).toHaveLength(before + 1);
      await expectReplayed(path, fields, key, answered);
      expect(await listed()).toHaveLength(before + 1);
      expect((await demo().delete(`/rest-api/webhooks/${created.webhook.id}.do`)).status).toBe(200);
    },
    // the claim's answer lost; the create's transaction applied and its answer lost
    [[{ kind: 'lose', nth: 1 }], [{ kind: 'lose', nth: 2 }]],
  );
});

describe('a per-action delete or disable whose answer was lost after its commit', () => {
  it('answers the retry the stored answer, replayed, and records the change once', async () => {
    for (const [operation, path, fields] of [
      [
        'actionDelete',
        '/rest-api/per-action/delete.do',
        (id: number) => ({ type: 'CAMPAIGN', entityId: '100', ids: String(id) }),
      ],
      ['actionsDisabled', '/rest-api/per-action/limits/CAMPAIGN/100/disable.do', () => ({})],
    ] as const) {
      const added = await demo().post('/rest-api/per-action/add/limit/CAMPAIGN/100.do', {
        actionId: '7',
        dailyConversionsLimit: nextValue(),
      });
      const { actionLimit } = (await added.json()) as { actionLimit: { id: number } };
      const [key, sent] = [newKey(), fields(actionLimit.id)];
      const before = (await historyOf([operation])).length;
      // the claim, then the transaction: its answer is lost once it has committed
      await injectFault({ kind: 'lose', nth: 2 });
      expect((await send(path, sent, key)).status, operation).toBeGreaterThanOrEqual(500);
      await clearFaults();
      expect((await historyOf([operation])).length, operation).toBe(before + 1);
      const retry = await send(path, sent, key);
      expect(retry.status, operation).toBe(200);
      expect(retry.headers.get('idempotent-replayed'), operation).toBe('true');
      expect(await retry.json(), operation).toMatchObject({ success: true });
      expect((await historyOf([operation])).length, operation).toBe(before + 1);
      const listed = (await (await demo().get('/rest-api/per-action/limits/CAMPAIGN/100.do')).json()) as {
        actionLimits: unknown[];
      };
      expect(listed.actionLimits, operation).toEqual([]);
    }
  });
});
