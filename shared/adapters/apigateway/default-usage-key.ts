import { APIGatewayClient, GetApiKeyCommand } from '@aws-sdk/client-api-gateway';

/**
 * A usage-plan key the stack made, by the id it gives in `variable`: its value is read once per container (a
 * low-rate API), never written into the template.
 */
export const usageKeyFromEnvironment = (
  variable: 'DEFAULT_USAGE_KEY_ID' | 'ANONYMOUS_USAGE_KEY_ID',
  env: NodeJS.ProcessEnv = process.env,
): (() => Promise<string | undefined>) => {
  const id = env[variable];
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
