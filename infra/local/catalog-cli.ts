import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import { importCatalog } from '../../shared/catalog/catalog-import';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { storeFromEnvironment } from '../../shared/runtime/dependencies';
import { registerCatalogKeys } from '../../scripts/register-catalog-keys';

const USAGE = `Usage: npm run catalog:import -- FILE [--url URL]
  With TABLE_NAME set: writes FILE straight to that table (AWS credentials from the environment;
  DYNAMODB_ENDPOINT for a DynamoDB Local); with USAGE_PLAN_ID set too, makes every API key of the
  catalog exist in API Gateway, in that usage plan. Otherwise: sends FILE to the running local server
  (--url, default http://127.0.0.1:3000), which imports it with the same importer.`;

const { values, positionals } = parseArgs({
  options: { url: { type: 'string', default: 'http://127.0.0.1:3000' } },
  allowPositionals: true,
  strict: false,
});
const url = String(values.url);
const file = positionals[0];
if (!file || positionals.length > 1) {
  console.error(USAGE);
  process.exit(2);
}

const report = (result: { ok: boolean; counts?: unknown; problems?: { path: string; reason: string }[] }) => {
  if (result.ok) {
    console.log(`Imported ${JSON.stringify(result.counts)}`);
    return;
  }
  console.error('The catalog is invalid; nothing was written:');
  for (const problem of result.problems ?? []) console.error(`  ${problem.path}: ${problem.reason}`);
  process.exit(1);
};

const text = await readFile(file, 'utf8');
if (process.env.TABLE_NAME) {
  let content: unknown;
  try {
    content = JSON.parse(text);
  } catch (error) {
    report({ ok: false, problems: [{ path: '$', reason: `not JSON: ${(error as Error).message}` }] });
  }
  const result = await importCatalog(storeFromEnvironment(), content);
  report(result);
  if (result.ok && process.env.USAGE_PLAN_ID) {
    const keys = (content as { users?: { apiKeys?: string[] }[] }).users?.flatMap((user) => user.apiKeys ?? []) ?? [];
    const registered = await registerCatalogKeys(new APIGatewayClient({}), keys, process.env.USAGE_PLAN_ID);
    console.log(`API Gateway keys: ${registered.created} created, ${registered.existing} already there`);
  }
} else {
  const response = await fetch(`${url}/_local/catalog`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: text,
  });
  const body = (await response.json()) as {
    imported?: unknown;
    problems?: { path: string; reason: string }[];
    message?: string;
  };
  if (response.ok) report({ ok: true, counts: body.imported });
  else
    report({
      ok: false,
      problems: body.problems ?? [{ path: '$', reason: body.message ?? `HTTP ${response.status}` }],
    });
}
