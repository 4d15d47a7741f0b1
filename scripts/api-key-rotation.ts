import {
  DeleteApiKeyCommand,
  GetApiKeyCommand,
  NotFoundException,
  type APIGatewayClient,
} from '@aws-sdk/client-api-gateway';
import { sha256Hex } from '../shared/domain/auth/crypto';
import { getProfile } from '../shared/adapters/dynamodb/user-records';
import type { TableStore } from '../shared/adapters/dynamodb/table-store';
import { apiKeyKey } from '../shared/table/keys';
import { CommandFailure } from './command-line';
import { createApiKey, type CreatedApiKey } from './create-api-key';

/** A user's credential key as API Gateway and the table know it. */
interface UserApiKey {
  keyId: string;
  digest: string;
  userId: number;
}

/**
 * The key with this id, if it is a user's credential. The table keys credentials by the SHA-256 of their value and
 * records the gateway's id beside it, so the value is read from API Gateway once, to find the item. A metering key
 * (on a profile, never a credential) has no such item and is refused: revoking it would stop its user's metering.
 */
const userApiKey = async (apiGateway: APIGatewayClient, store: TableStore, keyId: string): Promise<UserApiKey> => {
  let value: string | undefined;
  try {
    value = (await apiGateway.send(new GetApiKeyCommand({ apiKey: keyId, includeValue: true }))).value;
  } catch (error) {
    if (error instanceof NotFoundException) throw new CommandFailure(`API Gateway has no key with id ${keyId}.`);
    throw error;
  }
  const digest = sha256Hex(value ?? '');
  const item = await store.get(apiKeyKey(digest));
  if (!item || item.apiKeyId !== keyId)
    throw new CommandFailure(`Key ${keyId} is no user's API key in ${store.tableName} (a metering key is never one).`);
  return { keyId, digest, userId: Number(item.userId) };
};

/**
 * Revokes a user's API key: its digest leaves the table first, so the authorizer refuses it from then on (a warm
 * container may still accept it for up to a minute), then the key leaves API Gateway and its usage plan.
 */
export const revokeApiKey = async (
  apiGateway: APIGatewayClient,
  store: TableStore,
  keyId: string,
): Promise<{ userId: number }> => {
  const key = await userApiKey(apiGateway, store, keyId);
  await store.delete({ Key: apiKeyKey(key.digest) });
  await apiGateway.send(new DeleteApiKeyCommand({ apiKey: keyId }));
  return { userId: key.userId };
};

/**
 * Rotates a user's API key: a new key for the same user, in the usage plan given, while the old one keeps working
 * until it is revoked, so that the partner can switch without a failed request.
 */
export const rotateApiKey = async (
  apiGateway: APIGatewayClient,
  store: TableStore,
  options: { keyId: string; usagePlanId: string; now: Date },
): Promise<CreatedApiKey & { username: string }> => {
  const key = await userApiKey(apiGateway, store, options.keyId);
  const profile = await getProfile(store, key.userId);
  if (!profile) throw new CommandFailure(`Key ${options.keyId} belongs to user ${key.userId}, who no longer exists.`);
  const created = await createApiKey(apiGateway, store, { ...options, username: profile.username });
  return { ...created, username: profile.username };
};
