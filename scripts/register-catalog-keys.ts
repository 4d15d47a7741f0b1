import {
  ConflictException,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  GetApiKeysCommand,
  type APIGatewayClient,
} from '@aws-sdk/client-api-gateway';
import { sha256Hex } from '../shared/domain/auth/crypto';

/** A catalog key's name in API Gateway: a digest of the value, so that the console never shows a key. */
export const catalogKeyName = (value: string): string => `catalog-${sha256Hex(value).slice(0, 24)}`;

/**
 * Makes every API key of a catalog exist in API Gateway, in the partner usage plan, so that the keys the
 * authorizer accepts are also keys API Gateway meters (with `apiKeySource: AUTHORIZER` it refuses a usage
 * identifier it does not know). Idempotent: a key or a plan membership that exists is left as it is.
 */
export const registerCatalogKeys = async (
  apiGateway: APIGatewayClient,
  keys: readonly string[],
  usagePlanId: string,
): Promise<{ created: number; existing: number }> => {
  let created = 0;
  let existing = 0;
  for (const value of new Set(keys)) {
    const name = catalogKeyName(value);
    const found = await apiGateway.send(new GetApiKeysCommand({ nameQuery: name, includeValues: false }));
    let id = found.items?.find((item) => item.name === name)?.id;
    if (id) existing++;
    else {
      id = (await apiGateway.send(new CreateApiKeyCommand({ name, value, enabled: true }))).id;
      created++;
    }
    if (!id) throw new Error(`API Gateway returned no id for ${name}`);
    try {
      await apiGateway.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId: id, keyType: 'API_KEY' }));
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
    }
  }
  return { created, existing };
};
