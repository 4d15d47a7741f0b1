import {
  APIGatewayClient,
  ConflictException,
  GetApiKeysCommand,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
} from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../scripts/create-api-key';
import { catalogKeyName, registerCatalogKeys } from '../../scripts/register-catalog-keys';
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

describe('npm run catalog:import into a deployed stack (USAGE_PLAN_ID set)', () => {
  it("makes the catalog's API keys exist in API Gateway, in the usage plan, once however often it runs", async () => {
    const keys = ['catalog-key-value-0001', 'catalog-key-value-0002'];
    const made = new Map<string, string>();
    apiGateway.on(GetApiKeysCommand).callsFake((input: { nameQuery: string }) => ({
      items: made.has(input.nameQuery) ? [{ id: made.get(input.nameQuery), name: input.nameQuery }] : [],
    }));
    apiGateway.on(CreateApiKeyCommand).callsFake((input: { name: string }) => {
      made.set(input.name, `id-${made.size + 1}`);
      return { id: made.get(input.name) };
    });
    apiGateway
      .on(CreateUsagePlanKeyCommand)
      .resolvesOnce({})
      .resolvesOnce({})
      .rejects(new ConflictException({ message: 'already in the plan', $metadata: {} }));
    expect(await registerCatalogKeys(new APIGatewayClient({}), keys, 'plan-1')).toEqual({ created: 2, existing: 0 });
    expect(await registerCatalogKeys(new APIGatewayClient({}), keys, 'plan-1')).toEqual({ created: 0, existing: 2 });
    const creates = apiGateway.commandCalls(CreateApiKeyCommand).map((call) => call.args[0].input);
    expect(creates.map((input) => input.value)).toEqual(keys);
    // the console shows a digest, never a key
    expect(
      creates.every((input) => input.name === catalogKeyName(input.value!) && !input.name!.includes('catalog-key')),
    ).toBe(true);
    expect(apiGateway.commandCalls(CreateUsagePlanKeyCommand).map((call) => call.args[0].input.usagePlanId)).toEqual(
      Array(4).fill('plan-1'),
    );
  });
});
