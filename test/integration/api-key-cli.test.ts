import {
  APIGatewayClient,
  ConflictException,
  GetApiKeysCommand,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  GetApiKeyCommand,
  NotFoundException,
} from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { revokeApiKey, rotateApiKey } from '../../scripts/api-key-rotation';
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

describe('npm run api-key -- rotate and revoke', () => {
  const readWith = (key: string) =>
    fetch(`${ctx.service.url}/rest-api/campaign/100/limits.do`, { headers: { 'X-Api-Key': key } });

  /** An API Gateway that holds the keys made through it, and answers GetApiKey with their values. */
  const gatewayKeys = () => {
    const keys = new Map<string, string>();
    apiGateway.on(CreateApiKeyCommand).callsFake(() => {
      const id = `k${keys.size + 1}`;
      keys.set(id, `rotation-key-value-${id}-${Date.now()}`);
      return { id, value: keys.get(id) };
    });
    apiGateway.on(CreateUsagePlanKeyCommand).resolves({});
    apiGateway.on(GetApiKeyCommand).callsFake((input: { apiKey: string }) => {
      if (!keys.has(input.apiKey)) throw new NotFoundException({ message: 'no key', $metadata: {} });
      return { id: input.apiKey, value: keys.get(input.apiKey) };
    });
    apiGateway.on(DeleteApiKeyCommand).callsFake((input: { apiKey: string }) => keys.delete(input.apiKey));
    return keys;
  };

  it('rotates to a new key of the same user while the old one works, then revokes the old one for good', async () => {
    const keys = gatewayKeys();
    const store = ctx.service.dependencies.store;
    const old = await createApiKey(new APIGatewayClient({}), store, {
      username: 'alice',
      usagePlanId: 'p',
      now: new Date(),
    });
    const rotated = await rotateApiKey(new APIGatewayClient({}), store, {
      keyId: old.keyId,
      usagePlanId: 'p',
      now: new Date(),
    });
    expect(rotated).toMatchObject({ username: 'alice', userId: old.userId });
    expect(rotated.value).not.toBe(old.value);
    expect((await readWith(old.value)).status).toBe(200);
    expect((await readWith(rotated.value)).status).toBe(200);

    expect(await revokeApiKey(new APIGatewayClient({}), store, old.keyId)).toEqual({ userId: old.userId });
    expect(keys.has(old.keyId)).toBe(false);
    expect((await scanTable(ctx.service)).some((item) => item.PK === `APIKEY#${sha256Hex(old.value)}`)).toBe(false);
    // a warm container remembers an accepted key for at most a minute
    ctx.service.clock.advance(61);
    expect((await readWith(old.value)).status).toBe(401);
    expect((await readWith(rotated.value)).status).toBe(200);
    ctx.service.clock.set(null);
    await expect(revokeApiKey(new APIGatewayClient({}), store, old.keyId)).rejects.toThrow(
      `no key with id ${old.keyId}`,
    );
  });

  it("refuses to revoke or rotate a key that is no user's credential, and changes nothing", async () => {
    const keys = gatewayKeys();
    // a key API Gateway holds but no user authenticates with, as a user's metering key
    keys.set('k-metering', 'metering-value-of-no-credential');
    const store = ctx.service.dependencies.store;
    const before = await scanTable(ctx.service);
    await expect(revokeApiKey(new APIGatewayClient({}), store, 'k-metering')).rejects.toThrow(
      "Key k-metering is no user's API key",
    );
    await expect(
      rotateApiKey(new APIGatewayClient({}), store, { keyId: 'k-missing', usagePlanId: 'p', now: new Date() }),
    ).rejects.toThrow('API Gateway has no key with id k-missing');
    expect(apiGateway.commandCalls(DeleteApiKeyCommand)).toHaveLength(0);
    expect(apiGateway.commandCalls(CreateApiKeyCommand)).toHaveLength(0);
    expect(await scanTable(ctx.service)).toEqual(before);
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
