import '../../scripts/quiet-sdk-notice';
import { CommandFailure, failWith, parsePort, readArguments, readJsonFile, runTool } from '../../scripts/command-line';

const localUrl = (port: number) => `http://127.0.0.1:${port}`;

const USAGE = `Usage: npm run catalog:import -- FILE [--port N | --url URL]
  Without TABLE_NAME: sends FILE to the running local server, which imports it with the same importer:
  --port  the local server's port, as given to npm start (env PORT, default 3000)
  --url   the local server's address in full (default http://127.0.0.1:PORT)
  With TABLE_NAME: writes FILE straight to that table (AWS credentials from the environment;
  DYNAMODB_ENDPOINT for a DynamoDB Local); with USAGE_PLAN_ID too, makes every API key of the catalog
  exist in API Gateway, in that usage plan.`;

const { values, positionals } = readArguments(USAGE, { port: { type: 'string' }, url: { type: 'string' } }, true);

// loaded once the arguments are read: --help and a mistyped option answer without loading the tool's work
const { APIGatewayClient } = await import('@aws-sdk/client-api-gateway');
const { importCatalog } = await import('../../shared/catalog/catalog-import');
const { storeFromEnvironment } = await import('../../shared/runtime/dependencies');
const { registerCatalogKeys } = await import('../../scripts/register-catalog-keys');
const file = positionals[0];
if (values.port && values.url) failWith('Give --port N or --url URL, not both.');
const url = values.url ?? localUrl(parsePort(values.port ?? process.env.PORT ?? '3000'));

type Problem = { path: string; reason: string };

const invalid = (problems: Problem[]) =>
  new CommandFailure(
    `The catalog is invalid; nothing was written: ${problems.map((problem) => `${problem.path}: ${problem.reason}`).join('; ')}`,
  );

const importIntoTable = async (content: unknown) => {
  const result = await importCatalog(storeFromEnvironment(), content);
  if (!result.ok) throw invalid(result.problems);
  console.log(`Imported ${JSON.stringify(result.counts)}`);
  if (process.env.USAGE_PLAN_ID) {
    const keys = (content as { users?: { apiKeys?: string[] }[] }).users?.flatMap((user) => user.apiKeys ?? []) ?? [];
    const registered = await registerCatalogKeys(new APIGatewayClient({}), keys, process.env.USAGE_PLAN_ID);
    console.log(`API Gateway keys: ${registered.created} created, ${registered.existing} already there`);
  }
};

const importThroughServer = async (content: unknown) => {
  let response: Response;
  try {
    response = await fetch(`${url}/_local/catalog`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(content),
    });
  } catch {
    throw new CommandFailure(
      `No local server answers at ${url}: start it with npm start, pass its --port (or --url), or set TABLE_NAME to write to a table.`,
    );
  }
  const body = (await response.json().catch(() => ({}))) as {
    imported?: unknown;
    problems?: Problem[];
    message?: string;
  };
  if (!response.ok)
    throw invalid(
      body.problems ?? [{ path: '$', reason: body.message ?? `the server answered HTTP ${response.status}` }],
    );
  console.log(`Imported ${JSON.stringify(body.imported)}`);
};

await runTool(async () => {
  if (!file || positionals.length > 1)
    throw new CommandFailure('Give one catalog file: npm run catalog:import -- FILE (--help for more).');
  const content = await readJsonFile(file);
  await (process.env.TABLE_NAME ? importIntoTable(content) : importThroughServer(content));
});
