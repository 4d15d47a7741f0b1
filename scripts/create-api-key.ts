import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
} from '@aws-sdk/client-api-gateway';
import { sha256Hex } from '../shared/domain/auth/crypto';
import { getProfile, usageKeyRequest, userIdByUsername } from '../shared/adapters/dynamodb/user-records';
import { apiKeyKey } from '../shared/table/keys';
import type { TableStore } from '../shared/adapters/dynamodb/table-store';

export interface CreatedApiKey {
  keyId: string;
  value: string;
  userId: number;
  /** The user's metering key, made on the user's first key: the authorizer meters hash and session calls by it. */
  meteringKeyId?: string;
}

/**
 * The key the authorizer hands API Gateway for the user's hash and session calls, so that each partner is metered
 * under its own usage identity. It is no credential (the authorizer never accepts it), so its value is kept on
 * the profile, where the authorizer reads it with the user.
 */
const ensureMeteringKey = async (
  apiGateway: APIGatewayClient,
  store: TableStore,
  options: { username: string; usagePlanId: string; userId: number },
): Promise<string | undefined> => {
  const profile = await getProfile(store, options.userId);
  if (profile?.usageKey) return undefined;
  const key = await apiGateway.send(
    new CreateApiKeyCommand({ name: `${options.username}-metering`, enabled: true, generateDistinctId: true }),
  );
  if (!key.id || !key.value) throw new Error('API Gateway returned no key');
  await apiGateway.send(
    new CreateUsagePlanKeyCommand({ usagePlanId: options.usagePlanId, keyId: key.id, keyType: 'API_KEY' }),
  );
  await store.update(usageKeyRequest(options.userId, key.value));
  return key.id;
};

/**
 * Creates an API Gateway key for a user, adds it to a usage plan and stores only its SHA-256 digest. The key is
 * marked as created here, so that a later catalog import (which manages the catalog's own keys) leaves it alone.
 */
export const createApiKey = async (
  apiGateway: APIGatewayClient,
  store: TableStore,
  options: { username: string; usagePlanId: string; now: Date },
): Promise<CreatedApiKey> => {
  const userId = await userIdByUsername(store, options.username);
  if (userId === undefined) throw new Error(`No user named "${options.username}" in table ${store.tableName}`);
  const key = await apiGateway.send(
    new CreateApiKeyCommand({
      name: `${options.username}-${options.now.toISOString().replace(/[:.]/g, '-')}`,
      enabled: true,
      generateDistinctId: true,
    }),
  );
  if (!key.id || !key.value) throw new Error('API Gateway returned no key');
  try {
    await apiGateway.send(
      new CreateUsagePlanKeyCommand({ usagePlanId: options.usagePlanId, keyId: key.id, keyType: 'API_KEY' }),
    );
    await store.insert({
      ...apiKeyKey(sha256Hex(key.value)),
      userId,
      apiKeyId: key.id,
      createdBy: 'api-key-cli',
      createdAt: options.now.toISOString(),
    });
  } catch (error) {
    // no half-made key: one that is not metered or not mapped must not exist
    await apiGateway.send(new DeleteApiKeyCommand({ apiKey: key.id })).catch(() => undefined);
    throw error;
  }
  const meteringKeyId = await ensureMeteringKey(apiGateway, store, { ...options, userId });
  return { keyId: key.id, value: key.value, userId, ...(meteringKeyId ? { meteringKeyId } : {}) };
};
