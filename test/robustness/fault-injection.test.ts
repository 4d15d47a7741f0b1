import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiClient, hashAuth } from '../support/http';
import { scanTable, useTestService } from '../support/local-service';
import { withoutBackOffWaits } from '../support/sdk-back-off';

const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');
const INJECTOR = 'throttleInjector';

const throttled = () =>
  Object.assign(new Error('Rate of requests exceeds the allowed throughput'), {
    name: 'ProvisionedThroughputExceededException',
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
  });

/**
 * Throttles DynamoDB calls inside the SDK's own retry loop (the deserialize step runs within it), so the SDK's
 * retries are the real ones. `failures` is how many attempts of each matching call fail.
 */
const injectThrottling = (matches: (commandName: string) => boolean, failures: number) => {
  withoutBackOffWaits();
  const attempts = new Map<object, number>();
  ctx.service.requestTaps.add(
    (next, context) => async (args) => {
      const name = String(context.commandName);
      if (matches(name)) {
        const seen = (attempts.get(args.input as object) ?? 0) + 1;
        attempts.set(args.input as object, seen);
        if (seen <= failures) throw throttled();
      }
      return next(args);
    },
    { step: 'deserialize', name: INJECTOR },
  );
  return attempts;
};

afterEach(() => {
  ctx.service.requestTaps.remove(INJECTOR);
  vi.restoreAllMocks();
});

const WRITES = (name: string) => /^(Put|Update|Delete|BatchWrite|TransactWrite)/.test(name);

describe('DynamoDB throttling', () => {
  it('is retried by the SDK, and the request succeeds', async () => {
    injectThrottling(WRITES, 1);
    const response = await demo().post('/rest-api/campaign/100/limits/set.do', { dailyClicksLimit: '11' });
    expect(response.status).toBe(200);
    ctx.service.requestTaps.remove(INJECTOR);
    expect(await (await demo().get('/rest-api/campaign/100/limits.do')).json()).toMatchObject({ dailyClicksLimit: 11 });
  });

  it('answers 503 with Retry-After when it persists, and writes nothing', async () => {
    const before = await scanTable(ctx.service);
    const attempts = injectThrottling(WRITES, Number.POSITIVE_INFINITY);
    for (const [path, fields] of [
      ['/rest-api/campaign/100/limits/update.do', { dailyClicksLimit: '12' }],
      ['/rest-api/per-action/add/limit/CAMPAIGN/100.do', { actionId: '7', dailyConversionsLimit: '2' }],
    ] as const) {
      const response = await demo().post(path, fields);
      expect(response.status, path).toBe(503);
      expect(response.headers.get('retry-after'), path).toBeTruthy();
      expect(await response.json()).toMatchObject({ success: false });
    }
    ctx.service.requestTaps.remove(INJECTOR);
    // each throttled write was attempted again by the SDK before the service gave up
    expect(Math.min(...attempts.values())).toBeGreaterThan(1);
    expect(await scanTable(ctx.service)).toEqual(before);
  });

  it("on reads answers 503 with Retry-After, never 500, the authorizer's reads included", async () => {
    injectThrottling((name) => /^(Get|BatchGet|Query)/.test(name), Number.POSITIVE_INFINITY);
    const response = await demo().get('/rest-api/campaign/100/limits.do');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBeTruthy();
    expect(await response.json()).toMatchObject({ success: false });
  });
});

describe('a lost conditional write', () => {
  it('is re-read and retried, and the change lands', async () => {
    const { store } = ctx.service.dependencies;
    const transactWrite = vi.spyOn(store, 'transactWrite');
    // the SDK's own exception, as DynamoDB answers a lost race; the store translates it for the retry loop
    let lost = false;
    ctx.service.requestTaps.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand' && !lost) {
          lost = true;
          throw new TransactionCanceledException({
            message: 'version changed',
            $metadata: {},
            CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }],
          });
        }
        return next(args);
      },
      { step: 'deserialize', name: INJECTOR },
    );
    const response = await demo().post('/rest-api/campaign/100/limits/update.do', { weeklyClicksLimit: '500' });
    expect(response.status).toBe(200);
    expect(transactWrite).toHaveBeenCalledTimes(2);
    expect(await (await demo().get('/rest-api/campaign/100/limits.do')).json()).toMatchObject({
      weeklyClicksLimit: 500,
    });
  });
});

describe('an SQS failure on reset.do', () => {
  it('answers 503 and claims nothing queued', async () => {
    const queued = ctx.service.resetQueue.size;
    vi.spyOn(ctx.service.resetQueue, 'enqueue').mockRejectedValueOnce(new Error('SQS unavailable'));
    const response = await demo().post('/rest-api/campaign/100/limits/reset.do', { limitCounters: 'ALL' });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBeTruthy();
    const body = (await response.json()) as { success: boolean; message: string };
    expect(body.success).toBe(false);
    expect(body.message).toMatch(/nothing was queued/);
    expect(ctx.service.resetQueue.size).toBe(queued);
  });
});

describe('a hash-authenticated write that fails', () => {
  it('may be retried identically once the failure has passed; a write that landed may not', async () => {
    const { clock } = ctx.service.dependencies;
    const auth = hashAuth('demo', 'demo-password', clock.now().getTime());
    const url = `${ctx.service.url}/rest-api/campaign/100/limits/set.do?${new URLSearchParams({ ...auth, dailyClicksLimit: '33' })}`;
    // the limit record's write is throttled on every attempt the SDK makes; the replay guard's own write is not
    withoutBackOffWaits();
    ctx.service.requestTaps.add(
      (next) => async (args) => {
        const { TransactItems } = args.input as { TransactItems?: { Put?: { Item?: { SK?: { S?: string } } } }[] };
        if (TransactItems?.some(({ Put }) => Put?.Item?.SK?.S === 'LIMIT')) throw throttled();
        return next(args);
      },
      { step: 'deserialize', name: INJECTOR },
    );
    expect((await fetch(url, { method: 'POST' })).status).toBe(503);
    ctx.service.requestTaps.remove(INJECTOR);
    expect((await fetch(url, { method: 'POST' })).status).toBe(200);
    expect((await fetch(url, { method: 'POST' })).status).toBe(401);
    expect(await (await demo().get('/rest-api/campaign/100/limits.do')).json()).toMatchObject({ dailyClicksLimit: 33 });
  });
});
