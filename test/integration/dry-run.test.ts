import { describe, expect, it } from 'vitest';
import { apiClient } from '../support/http';
import { scanTable, useTestService } from '../support/local-service';

/** dryRun=true: every check runs, the answer is the write's own plus `dryRun: true`, and nothing is written. */
const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');
const json = async (response: Response) => ({
  status: response.status,
  body: (await response.json()) as Record<string, unknown>,
});

describe('dry runs', () => {
  it('answer set.do and update.do exactly as the write would, and write nothing', async () => {
    await demo().post('/rest-api/campaign/100/limits/set.do', { dailyClicksLimit: '10' });
    for (const operation of ['set', 'update']) {
      const before = await scanTable(ctx.service);
      const dry = await json(
        await demo().post(`/rest-api/campaign/100/limits/${operation}.do`, { dailyClicksLimit: '20', dryRun: 'true' }),
      );
      expect(await scanTable(ctx.service), operation).toEqual(before);
      const real = await json(
        await demo().post(`/rest-api/campaign/100/limits/${operation}.do`, { dailyClicksLimit: '20' }),
      );
      expect(dry, operation).toEqual({ status: 200, body: { ...real.body, dryRun: true } });
      await demo().post('/rest-api/campaign/100/limits/set.do', { dailyClicksLimit: '10' });
    }
  });

  it('create no record and no record id on set.do of an entity without limits', async () => {
    await demo().delete('/rest-api/banner/1001/limits.do');
    const before = await scanTable(ctx.service);
    const dry = await json(
      await demo().post('/rest-api/banner/1001/limits/set.do', { totalClicksLimit: '5', dryRun: 'yes' }),
    );
    expect(dry).toMatchObject({
      status: 200,
      body: { bannerId: 1001, limitsSet: true, totalClicksLimit: 5, dryRun: true },
    });
    expect(dry.body).not.toHaveProperty('id');
    expect(await scanTable(ctx.service)).toEqual(before);
  });

  it('run every check: 400, 403 and 404 are what the write would answer', async () => {
    const before = await scanTable(ctx.service);
    const invalid = await json(
      await demo().post('/rest-api/campaign/100/limits/update.do', { dailyClicksLimit: 'x', dryRun: 'true' }),
    );
    expect(invalid.status).toBe(400);
    const unknown = await json(
      await demo().post('/rest-api/campaign/999/limits/set.do', { dailyClicksLimit: '1', dryRun: 'true' }),
    );
    expect(unknown.status).toBe(404);
    const viewer = apiClient(ctx.service.url, 'viewer-key-0001');
    expect(
      (await viewer.post('/rest-api/campaign/100/limits/set.do', { dailyClicksLimit: '1', dryRun: 'true' })).status,
    ).toBe(403);
    const noRecord = await json(
      await demo().post('/rest-api/banner/1001/limits/update.do', { totalClicksLimit: '5', dryRun: 'true' }),
    );
    expect(noRecord.status).toBe(404);
    expect(await scanTable(ctx.service)).toEqual(before);
  });

  it('refuse a dryRun that is not a boolean, naming it', async () => {
    const answer = await json(
      await demo().post('/rest-api/campaign/100/limits/set.do', { dailyClicksLimit: '1', dryRun: 'maybe' }),
    );
    expect(answer).toMatchObject({ status: 400, body: { errors: { dryRun: expect.any(String) } } });
  });

  it('answer per-action add and update as they would, writing nothing', async () => {
    const before = await scanTable(ctx.service);
    const add = await json(
      await demo().post('/rest-api/per-action/add/limit/CAMPAIGN/100.do', {
        actionId: '8',
        totalConversionsLimit: '4',
        dryRun: 'true',
      }),
    );
    expect(add).toMatchObject({
      status: 200,
      body: { actionLimit: { actionId: 8, totalConversionsLimit: 4 }, actionLimitsEnabled: true, dryRun: true },
    });
    expect(add.body.actionLimit as object).not.toHaveProperty('id');
    expect(await scanTable(ctx.service)).toEqual(before);
    await demo().post('/rest-api/per-action/add/limit/CAMPAIGN/100.do', { actionId: '8', totalConversionsLimit: '4' });
    const stored = await scanTable(ctx.service);
    const update = await json(
      await demo().post('/rest-api/per-action/update/limit/CAMPAIGN/100.do', {
        actionId: '8',
        dailyConversionsLimit: '2',
        dryRun: '1',
      }),
    );
    expect(update).toMatchObject({
      status: 200,
      body: { actionLimit: { dailyConversionsLimit: 2, totalConversionsLimit: 4 }, dryRun: true },
    });
    expect(await scanTable(ctx.service)).toEqual(stored);
  });
});
