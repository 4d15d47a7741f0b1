import './quiet-sdk-notice';
import { CommandFailure, readArguments, runTool } from './command-line';

const USAGE = `Usage: npm run api-key -- create --user NAME [--plan USAGE_PLAN_ID]
       npm run api-key -- rotate --key-id ID [--plan USAGE_PLAN_ID]
       npm run api-key -- revoke --key-id ID
  create  makes an API Gateway key for the user, adds it to the usage plan (--plan or USAGE_PLAN_ID; the stack
          outputs PartnerUsagePlanId) and stores its SHA-256 digest in TABLE_NAME (the stack output TableName).
  rotate  makes a new key for the user of key ID, as create does; key ID keeps working until it is revoked.
  revoke  removes key ID: the service refuses it at once (a warm authorizer within a minute), and API Gateway
          deletes it and its usage-plan membership.
  A new key is printed once. AWS credentials come from the environment.
  Locally (npm start) there is no API Gateway: a user's keys are the apiKeys of its catalog entry, loaded with
  npm run catalog:import -- FILE or POST /_local/catalog (docs/local-server.md).`;

const { values, positionals } = readArguments(
  USAGE,
  { user: { type: 'string' }, plan: { type: 'string' }, 'key-id': { type: 'string' } },
  true,
);

// loaded once the arguments are read: --help and a mistyped option answer without loading the tool's work
const { APIGatewayClient } = await import('@aws-sdk/client-api-gateway');
const { storeFromEnvironment } = await import('../shared/runtime/dependencies');
const { revokeApiKey, rotateApiKey } = await import('./api-key-rotation');
const { createApiKey } = await import('./create-api-key');
const usagePlanId = values.plan ?? process.env.USAGE_PLAN_ID;
const action = positionals.length === 1 ? positionals[0] : undefined;

const requireUsagePlan = (): string => {
  if (!usagePlanId)
    throw new CommandFailure('Name the usage plan: --plan ID or USAGE_PLAN_ID (stack output PartnerUsagePlanId).');
  return usagePlanId;
};

const requireKeyId = (): string => {
  if (!values['key-id'])
    throw new CommandFailure(`Name the key: --key-id ID (the id ${action} prints, or the console's).`);
  return values['key-id'];
};

const printKey = (created: { keyId: string; value: string; userId: number }, username: string) => {
  console.log(`API key for ${username} (user ${created.userId}, key id ${created.keyId}):`);
  console.log(created.value);
  console.log('Send it as the X-Api-Key header. It is shown only now: only its digest is stored.');
};

const requireTable = () => {
  if (!process.env.TABLE_NAME)
    throw new CommandFailure(
      "Set TABLE_NAME to the stack output TableName (locally, a user's keys are its catalog entry's apiKeys).",
    );
};

await runTool(async () => {
  if (action === 'create') {
    if (!values.user) throw new CommandFailure('Name the user: --user NAME.');
    const plan = requireUsagePlan();
    requireTable();
    const created = await createApiKey(new APIGatewayClient({}), storeFromEnvironment(), {
      username: values.user,
      usagePlanId: plan,
      now: new Date(),
    });
    return printKey(created, values.user);
  }
  if (action === 'rotate') {
    const keyId = requireKeyId();
    const plan = requireUsagePlan();
    requireTable();
    const created = await rotateApiKey(new APIGatewayClient({}), storeFromEnvironment(), {
      keyId,
      usagePlanId: plan,
      now: new Date(),
    });
    printKey(created, created.username);
    return console.log(`Key ${keyId} still works: once the partner uses the new key, run revoke --key-id ${keyId}.`);
  }
  if (action === 'revoke') {
    const keyId = requireKeyId();
    requireTable();
    const { userId } = await revokeApiKey(new APIGatewayClient({}), storeFromEnvironment(), keyId);
    return console.log(`Key ${keyId} of user ${userId} is revoked.`);
  }
  throw new CommandFailure('Say what to do: npm run api-key -- create, rotate or revoke (--help for more).');
});
