import './quiet-sdk-notice';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { storeFromEnvironment } from '../shared/runtime/dependencies';
import { CommandFailure, readArguments, runTool } from './command-line';
import { createApiKey } from './create-api-key';

const USAGE = `Usage: npm run api-key -- create --user NAME [--plan USAGE_PLAN_ID]
  Creates an API Gateway key for the user, adds it to the usage plan (--plan or USAGE_PLAN_ID; the stack
  outputs PartnerUsagePlanId) and stores its SHA-256 digest in TABLE_NAME (the stack output TableName).
  Prints the key once. AWS credentials come from the environment.`;

const { values, positionals } = readArguments(USAGE, { user: { type: 'string' }, plan: { type: 'string' } }, true);
const usagePlanId = values.plan ?? process.env.USAGE_PLAN_ID;

await runTool(async () => {
  if (positionals[0] !== 'create' || positionals.length > 1)
    throw new CommandFailure('Say what to do: npm run api-key -- create --user NAME (--help for more).');
  if (!values.user) throw new CommandFailure('Name the user: --user NAME.');
  if (!usagePlanId)
    throw new CommandFailure('Name the usage plan: --plan ID or USAGE_PLAN_ID (stack output PartnerUsagePlanId).');
  if (!process.env.TABLE_NAME) throw new CommandFailure('Set TABLE_NAME to the stack output TableName.');
  const created = await createApiKey(new APIGatewayClient({}), storeFromEnvironment(), {
    username: values.user,
    usagePlanId,
    now: new Date(),
  });
  console.log(`API key for ${values.user} (user ${created.userId}, key id ${created.keyId}):`);
  console.log(created.value);
  console.log('Send it as the X-Api-Key header. It is shown only now: only its digest is stored.');
});
