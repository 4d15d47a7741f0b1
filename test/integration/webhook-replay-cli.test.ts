import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearWarmCaches } from '../../shared/support/warm-cache';
import { apiClient, postJson, setClock } from '../support/http';
import { useTestService } from '../support/local-service';
import { runToolInProcess } from '../support/tool-run';
import { startWebhookReceiver } from '../support/webhook-receiver';

const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  await setClock(ctx.service.url, { now: '2026-11-25T10:00:00.000Z' });
});

afterAll(async () => {
  await receiver?.stop();
});

const deliveryStates = async () => {
  const response = await fetch(`${ctx.service.url}/_local/webhook-deliveries`);
  return ((await response.json()) as { state: string }[]).map((delivery) => delivery.state);
};

const deadLettered = async () => {
  const letters = (await (await fetch(`${ctx.service.url}/_local/dead-letters`)).json()) as { queue: string }[];
  return letters.filter((letter) => letter.queue === 'WebhookDeliveriesDlq').length;
};

const replay = (...options: string[]) =>
  runToolInProcess('scripts/webhooks.ts', ['replay', '--local', ctx.service.url, ...options], {
    PATH: process.env.PATH,
    LOG_LEVEL: 'silent',
  });

describe('npm run webhooks -- replay --local', () => {
  it('with --dry-run counts the dead-lettered deliveries and replays none; without, replays them', async () => {
    receiver.answer(
      '/down',
      Array.from({ length: 8 }, () => 503),
    );
    const created = await demo().post('/rest-api/webhooks/create.do', {
      url: receiver.url('/down'),
      events: 'limit.reached',
      campaignIds: '100',
    });
    expect(created.status).toBe(200);
    clearWarmCaches();
    expect((await demo().post('/rest-api/campaign/100/limits/set.do', { dailyClicksLimit: '1' })).status).toBe(200);
    expect((await postJson(`${ctx.service.url}/_local/delivery`, [{ kind: 'click', bannerId: 1000 }])).status).toBe(
      200,
    );
    await deliveryStates();
    for (const seconds of [5, 300, 1800, 7200, 18000, 36000, 36000]) {
      await setClock(ctx.service.url, { advanceSeconds: seconds });
      await deliveryStates();
    }
    expect(await deliveryStates()).toEqual(['deadLettered']);
    expect(receiver.at('/down')).toHaveLength(8);

    const dry = await replay('--dry-run');
    expect(dry, dry.stderr).toMatchObject({ code: 0, stdout: 'would replay 1\n' });
    expect(await deadLettered()).toBe(1);
    expect(await deliveryStates()).toEqual(['deadLettered']);
    expect(receiver.at('/down')).toHaveLength(8);

    const real = await replay();
    expect(real, real.stderr).toMatchObject({ code: 0, stdout: 'replayed 1\n' });
    expect(receiver.at('/down')).toHaveLength(9);
    expect(await deliveryStates()).toEqual(['deadLettered', 'delivered']);
  });
});
