import { APIGatewayClient, GetApiKeyCommand } from '@aws-sdk/client-api-gateway';

/**
 * The usage-plan key that meters callers without an API key of their own (hash and session callers). The stack
 * gives its id; its value is read once per container, never written into the template.
 */
export const defaultUsageKeyFromEnvironment = (
  env: NodeJS.ProcessEnv = process.env,
): (() => Promise<string | undefined>) => {
  const id = env.DEFAULT_USAGE_KEY_ID;
  if (!id) return async () => undefined;
  let value: Promise<string | undefined> | undefined;
  return () =>
    (value ??= new APIGatewayClient({})
      .send(new GetApiKeyCommand({ apiKey: id, includeValue: true }))
      .then((key) => key.value)
      .catch((error) => {
        value = undefined;
        throw error;
      }));
};
