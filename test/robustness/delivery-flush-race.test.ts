import { describe, expect, it } from 'vitest';
import { apiClient, postJson } from '../support/http';
import { useTestService } from '../support/local-service';

const ctx = useTestService();

describe('delivery recorded while a flush applies resets', () => {
  it('keeps every increment of the counters the reset does not name, and zeroes the one it names', async () => {
    const demo = apiClient(ctx.service.url, 'demo-key-0001');
    await demo.post('/rest-api/campaign/100/limits/set.do', {
      totalImpressionsLimit: '1000000',
      totalClicksLimit: '1000000',
    });
    await postJson(`${ctx.service.url}/_local/delivery`, [{ kind: 'click', bannerId: 1000, count: 5 }]);

    const batches = 20;
    const perBatch = 50;
    const deliveries = Array.from({ length: batches }, () =>
      postJson(
        `${ctx.service.url}/_local/delivery`,
        Array.from({ length: perBatch }, () => ({ kind: 'impression', bannerId: 1000 })),
      ),
    );
    const resets = Array.from({ length: 5 }, async () => {
      await demo.post('/rest-api/campaign/100/limits/reset.do', { limitCounters: 'TOTAL_CLICKS' });
      return postJson(`${ctx.service.url}/_local/flush`, {});
    });
    const responses = await Promise.all([...deliveries, ...resets]);
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
    await postJson(`${ctx.service.url}/_local/flush`, {});

    const limit = (await (await demo.get('/rest-api/campaign/100/limits.do')).json()) as Record<string, number>;
    expect(limit.totalImpressions).toBe(batches * perBatch);
    expect(limit.totalClicks).toBe(0);
  });
});
