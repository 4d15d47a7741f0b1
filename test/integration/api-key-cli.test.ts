import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
} from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../scripts/create-api-key';
import { sha256Hex } from '../../shared/domain/auth/crypto';
import { importCatalog } from '../support/http';
import { scanTable, useTestService } from '../support/local-service';

const ctx = useTestService();
const apiGateway = mockClient(APIGatewayClient);
afterEach(() => apiGateway.reset());

describe('npm run api-key -- create', () => {
  it('creates a metered key that authenticates its user, storing only its digest, and survives a catalog re-import', async () => {
    apiGateway
      .on(CreateApiKeyCommand)
      .resolvesOnce({ id: 'k1', value: 'generated-key-value-0001' })
      .resolves({ id: 'm1', value: 'metering-key-value-0001' });
    apiGateway.on(CreateUsagePlanKeyCommand).resolves({});
    const created = await createApiKey(new APIGatewayClient({}), ctx.service.dependencies.store, {
      username: 'alice',
      usagePlanId: 'plan-1',
      now: new Date(),
    });
    expect(created).toEqual({ keyId: 'k1', value: 'generated-key-value-0001', userId: 2, meteringKeyId: 'm1' });
    expect(apiGateway.commandCalls(CreateUsagePlanKeyCommand)[0]!.args[0].input).toEqual({
      usagePlanId: 'plan-1',
      keyId: 'k1',
      keyType: 'API_KEY',
    });
    const items = await scanTable(ctx.service);
    expect(JSON.stringify(items)).not.toContain('generated-key-value-0001');
    expect(items.find((item) => item.PK === `APIKEY#${sha256Hex('generated-key-value-0001')}`)).toMatchObject({
      userId: 2,
    });
    const read = () =>
      fetch(`${ctx.service.url}/rest-api/campaign/100/limits.do`, {
        headers: { 'X-Api-Key': 'generated-key-value-0001' },
      });
    expect((await read()).status).toBe(200);
    // the user's metering key is on its profile (it is no credential), and a re-import keeps it
    const profile = () => ctx.service.dependencies.store.get({ PK: 'USER#2', SK: 'PROFILE' });
    expect(await profile()).toMatchObject({ usageKey: 'metering-key-value-0001' });
    const demo = (await import('../../infra/local/demo-catalog.json', { with: { type: 'json' } })).default;
    await importCatalog(ctx.service.url, demo);
    expect((await read()).status).toBe(200);
    expect(await profile()).toMatchObject({ usageKey: 'metering-key-value-0001' });
    const metered = await fetch(`${ctx.service.url}/rest-api/campaign/100/limits.do`, {
      headers: { 'X-Api-Key': 'metering-key-value-0001' },
    });
    expect(metered.status).toBe(401);
  });

  it('refuses an unknown user before creating anything', async () => {
    await expect(
      createApiKey(new APIGatewayClient({}), ctx.service.dependencies.store, {
        username: 'nobody',
        usagePlanId: 'p',
        now: new Date(),
      }),
    ).rejects.toThrow('nobody');
    expect(apiGateway.commandCalls(CreateApiKeyCommand)).toHaveLength(0);
  });

  it('deletes the new key again when it cannot be added to the usage plan', async () => {
    apiGateway.on(CreateApiKeyCommand).resolves({ id: 'k2', value: 'generated-key-value-0002' });
    apiGateway.on(CreateUsagePlanKeyCommand).rejects(new Error('NotFoundException: usage plan'));
    apiGateway.on(DeleteApiKeyCommand).resolves({});
    await expect(
      createApiKey(new APIGatewayClient({}), ctx.service.dependencies.store, {
        username: 'alice',
        usagePlanId: 'missing',
        now: new Date(),
      }),
    ).rejects.toThrow('usage plan');
    expect(apiGateway.commandCalls(DeleteApiKeyCommand)[0]!.args[0].input).toEqual({ apiKey: 'k2' });
    expect(
      (await scanTable(ctx.service)).some((item) => item.PK === `APIKEY#${sha256Hex('generated-key-value-0002')}`),
    ).toBe(false);
  });
});
