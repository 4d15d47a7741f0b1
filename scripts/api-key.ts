import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { parseArgs } from 'node:util';
import { storeFromEnvironment } from '../shared/runtime/dependencies';
import { createApiKey } from './create-api-key';

const USAGE = `Usage: npm run api-key -- create --user NAME [--plan USAGE_PLAN_ID]
  Creates an API Gateway key for the user, adds it to the usage plan (--plan or USAGE_PLAN_ID; the stack
  outputs PartnerUsagePlanId) and stores its SHA-256 digest in TABLE_NAME. Prints the key once.`;

const { values, positionals } = parseArgs({
  options: { user: { type: 'string' }, plan: { type: 'string' } },
  allowPositionals: true,
});
const usagePlanId = values.plan ?? process.env.USAGE_PLAN_ID;
if (positionals[0] !== 'create' || !values.user || !usagePlanId || !process.env.TABLE_NAME) {
  console.error(USAGE);
  process.exit(2);
}

try {
  const created = await createApiKey(new APIGatewayClient({}), storeFromEnvironment(), {
    username: values.user,
    usagePlanId,
    now: new Date(),
  });
  console.log(`API key for ${values.user} (user ${created.userId}, key id ${created.keyId}):`);
  console.log(created.value);
  console.log('Send it as the X-Api-Key header. It is shown only now: only its digest is stored.');
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
